import { z } from 'zod';

/**
 * The `tls_rpt` signal: a summary the poller composes from two calls, `{ config, failures }` =
 * GET /domains/{domain_id}/tls-rpt and GET /domains/{domain_id}/tls-rpt/failures. The interface does not
 * show the fields of either payload, so both are open objects kept whole; either may be absent (null)
 * when its call was not made or answered 404.
 */
export const tlsRptSummarySchema = z.looseObject({
  config: z.looseObject({}).nullish(),
  failures: z.looseObject({}).nullish(),
});
