import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import type { EditOperationName } from '../../../../shared/bridge/editOperationNames.ts';
import type { EditData } from '../../../../shared/bridge/editTypes.ts';
import type { EditResult } from '../../../../shared/bridge/results.ts';
import { writeAnswerIssues } from '../../signals/documentCheck.ts';
import type { Account } from '../../mirror/types.ts';
import type { SignalName } from '../../signals/catalog.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { EDIT_OPERATIONS, EDIT_OPERATION_NAMES, pathParameters } from '../editOperations.ts';
import { guard, parse } from '../guard.ts';
import { editChanges, editSnapshot, type EditSnapshot } from '../editChanges.ts';
import { editExpectation } from '../../status/editExpectation.ts';
import { openEditSilence } from '../editSilence.ts';
import type { Wiring } from '../wiring.ts';

/**
 * Keeps what the edit changed, by its request id, once the re-poll has brought the new state: a journal
 * that cannot be written costs the audit page its before → after, never the edit.
 */
function journal(
  w: Wiring,
  accountId: number,
  edit: {
    operation: string;
    body: unknown;
    response: unknown;
    before: EditSnapshot;
    path: Record<string, number>;
    sentAt: number;
  },
  requestId: string | undefined,
): void {
  if (!requestId) return;
  try {
    const after = editSnapshot(w.mirror, accountId, edit.operation, edit.path);
    const changes = editChanges({ mirror: w.mirror, accountId, ...edit, after });
    if (changes.length === 0) return;
    w.mirror.recordChange(accountId, {
      requestId,
      operation: edit.operation,
      changedAt: new Date(edit.sentAt).toISOString(),
      changes,
    });
  } catch (error) {
    w.options.logger?.warn(`the change journal was not written: ${(error as Error).message}`);
  }
}

/**
 * The answer's data as the renderer may read it: the values of the operation's success answer in openapi.yaml
 * (shared/api/responseSchemas.gen.ts). The write was made whatever the answer says, so an answer the document
 * does not allow is not handed over (null, as for an answer without a body) and the log names its values —
 * the edit still reports its success and the re-poll still shows the new state.
 */
function answerData(
  w: Wiring,
  operation: EditOperationName,
  data: unknown,
): EditData<EditOperationName> | null {
  if (data === undefined || data === null) return null;
  const issues = writeAnswerIssues(operation, data);
  const shapeOk = typeof data === 'object' && !Array.isArray(data);
  if (issues.length === 0 && shapeOk) {
    // Checked just above against the operation's own schema, which EditData is generated from.
    return data as EditData<EditOperationName>;
  }
  const why = shapeOk ? issues.map((i) => `${i.path}: ${i.message}`).join('; ') : 'not an object';
  w.options.logger?.warn(
    `${operation}: the service's answer is not what openapi.yaml allows (${why}); not shown`,
  );
  return null;
}

/** The owner's writes: validated, sent with foreground priority, then the affected signals re-polled. */
export function editMethods(w: Wiring): Pick<BridgeMethods, 'editOperations' | 'edit'> {
  const { mirror, engine } = w;
  return {
    editOperations: () =>
      guard(() =>
        EDIT_OPERATION_NAMES.map((name) => {
          const op = EDIT_OPERATIONS[name];
          return {
            name,
            method: op.method,
            path: op.path,
            summary: op.summary,
            takesBody: op.body !== null,
            affects: [
              ...op.affects,
              ...('affectsDomainList' in op && op.affectsDomainList ? (['domains'] as const) : []),
            ],
          };
        }),
      ),

    edit: (a) =>
      guard(async () => {
        const p = parse(args.editArgs, a);
        const name = p.operation;
        const op = EDIT_OPERATIONS[name];
        const account: Account = w.accounts.get(p.accountId);
        let body: unknown;
        if (op.body === null) {
          if (p.body !== undefined) throw new AuthwatchError('invalid_arguments', `${name} takes no body.`);
        } else {
          const checked = op.body.check(p.body);
          if (checked.problems.length > 0) {
            const first = checked.problems[0]!;
            throw new AuthwatchError(
              'invalid_arguments',
              `${first.field}: ${first.message}`,
              checked.problems.map((problem) => ({ path: problem.field, message: problem.message })),
            );
          }
          body = checked.body;
        }
        const path: Record<string, number> = {};
        for (const param of pathParameters(op.path)) {
          const value = param === 'domain_id' ? (p.domainId ?? p.params?.domain_id) : p.params?.[param];
          if (value === undefined) {
            throw new AuthwatchError(
              'invalid_arguments',
              `${name} needs ${param === 'domain_id' ? 'domainId' : `params.${param}`}.`,
            );
          }
          path[param] = value;
        }
        const api = engine.syncer(account).api;
        const method = op.method.toLowerCase() as 'post' | 'patch' | 'delete';
        // Evidence observed before the request was sent cannot confirm it (main/core/status/pending.ts).
        const sentAt = w.clock.now();
        // What the mirror holds before the write, for the audit log's before → after (editChanges.ts).
        const before = editSnapshot(mirror, account.id, name, path);
        const result = await api[method](op.path, {
          params: { path },
          ...(body !== undefined ? { body } : {}),
          priority: 'foreground',
        });
        // The panels kept for this account (the hosted records the forms start from, the choices of groups,
        // users and tokens) may show the state before the edit: the next 'auto' read asks again.
        w.readSinceEdit.set(account.id, new Set());
        const repolled: SignalName[] = [];
        const domainId = path.domain_id;
        // The protocol it changed shows the change as pending until a later check confirms or contradicts it.
        const expectation = editExpectation(name, body, op.summary);
        if (expectation && domainId !== undefined && mirror.domainDetail(account.id, domainId)) {
          mirror.recordPendingChange({ accountId: account.id, domainId, ...expectation, at: sentAt });
          w.emit({ type: 'changed', accountId: account.id, domainId, signal: 'health' });
          // Before the re-poll: the alert this planned change causes is raised silenced, paging no one.
          const held = openEditSilence(w, {
            accountId: account.id,
            domainId,
            operation: name,
            expectation,
            at: sentAt,
          });
          if (held) w.emit({ type: 'alerts_changed', accountId: account.id });
        }
        if (op.affects.length > 0 && domainId !== undefined && mirror.domainDetail(account.id, domainId)) {
          repolled.push(...(await engine.refresh(account, domainId, op.affects, { priority: 'foreground' })));
        }
        if ('affectsDomainList' in op && op.affectsDomainList) {
          repolled.push(...(await engine.refresh(account, null, ['domains'], { priority: 'foreground' })));
        }
        journal(
          w,
          account.id,
          { operation: name, body, response: result.data, before, path, sentAt },
          result.requestId,
        );
        await w.deliver();
        return {
          operation: name,
          status: result.status,
          requestId: result.requestId,
          data: answerData(w, name, result.data),
          repolled,
        };
        // The generic signature cannot be followed through EDIT_OPERATIONS[name]: `name` is the union, not O.
      }) as Promise<EditResult<typeof a.operation>>,
  };
}
