import { describe, expectTypeOf, it } from 'vitest';
import { createApiClient, type ApiResult } from '../../../../shared/api/client.ts';
import type { components } from '../../../../shared/api/types.gen.ts';

// These assertions are checked by `tsc` (npm run typecheck); a wrong type fails the build, not the run.
type Schemas = components['schemas'];
const api = createApiClient({ baseUrl: 'https://api.example.com' });

describe('the client is typed from the generated paths', () => {
  it('types data from the operation’s success envelope', () => {
    type Health = Awaited<ReturnType<typeof api.get<'/domains/{domain_id}/health'>>>;
    expectTypeOf<Health>().toExtend<ApiResult<unknown, unknown>>();
    expectTypeOf<Health['data']>().toEqualTypeOf<Schemas['HealthSnapshot']>();

    type Domains = Awaited<ReturnType<typeof api.get<'/domains'>>>;
    expectTypeOf<Domains['data']>().toEqualTypeOf<Schemas['Domain'][]>();
    expectTypeOf<NonNullable<Domains['pagination']>>().toEqualTypeOf<Schemas['Pagination']>();
  });

  it('paginate yields the list’s item type', () => {
    type Items = ReturnType<typeof api.paginate<'/domains'>>;
    expectTypeOf<Items>().toEqualTypeOf<AsyncGenerator<Schemas['Domain'], void, undefined>>();
  });

  it('rejects wrong paths, missing params and wrong bodies at compile time', () => {
    // Never called: only the compiler looks at these.
    const _typeOnly = () => {
      // @ts-expect-error not a path of the interface
      void api.get('/no-such-endpoint');
      // @ts-expect-error path params are required
      void api.get('/domains/{domain_id}/health');
      // @ts-expect-error domain_id is an integer
      void api.get('/domains/{domain_id}/health', { params: { path: { domain_id: 'one' } } });
      // @ts-expect-error /health has no POST
      void api.post('/health', {});
      // @ts-expect-error the body needs `name`
      void api.post('/domain-groups', { body: { title: 'x' } });
      // @ts-expect-error /health is not a list
      void api.paginate('/health');
      void api.post('/domain-groups', { body: { name: 'ok' }, requestId: 'r-1', priority: 'background' });
    };
    expectTypeOf(_typeOnly).toBeFunction();
  });
});
