/** POST /_sandbox/threats {source_name} — registers a sending source as a known threat (idempotent). */
import type { SandboxRoute } from './sandboxRoute.ts';

export const routes: SandboxRoute[] = [
  {
    method: 'POST',
    path: '/threats',
    body: {
      type: 'object',
      required: ['source_name'],
      additionalProperties: false,
      properties: { source_name: { type: 'string', minLength: 1, maxLength: 253 } },
    },
    handler: (req, ctx) => {
      const name = (req.body.source_name as string).trim();
      ctx.db
        .prepare(
          'INSERT INTO threats (source_name, created_at) VALUES (?, ?) ON CONFLICT (source_name) DO NOTHING',
        )
        .run(name, ctx.clock().toISOString());
      const row = ctx.db
        .prepare<[string], { id: number; source_name: string }>(
          'SELECT id, source_name FROM threats WHERE source_name = ?',
        )
        .get(name)!;
      return { status: 201, data: { id: row.id, source_name: row.source_name } };
    },
  },
];
