import { readFileSync, writeFileSync } from 'node:fs';
import { AuthwatchError, type Authwatch } from '../../core/index.ts';
import { CommandFailed, type CliIo } from '../io.ts';

/** `authwatch routes export [--file F]`: the routing table as its JSON file (stdout without --file). */
export async function exportRouteFile(app: Authwatch, file: string | undefined, io: CliIo): Promise<void> {
  const { content } = await app.exportRoutes();
  if (!file) {
    io.stdout.write(content);
    return;
  }
  try {
    writeFileSync(file, content);
  } catch (error) {
    throw new CommandFailed(`Cannot write ${file}: ${(error as Error).message}`);
  }
  const count = (JSON.parse(content) as { routes: unknown[] }).routes.length;
  io.stderr.write(`authwatch: wrote the routing table (${count} routes) to ${file}\n`);
}

/**
 * `authwatch routes import F`: the whole file is checked (every field, every channel and account it names)
 * before the table is replaced; a bad file is named with its field and changes nothing.
 */
export async function importRouteFile(app: Authwatch, file: string, io: CliIo): Promise<void> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CommandFailed(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const table = await app.importRoutes({ text });
    io.stdout.write(
      `Imported ${table.length} routes from ${file}: ${table.map((r) => r.name).join(', ')}.\n`,
    );
  } catch (error) {
    if (error instanceof AuthwatchError)
      throw new CommandFailed(`${file}: ${error.message} — the routing table is unchanged.`);
    throw error;
  }
}
