/**
 * A list of the Manage screen read from its panel (members, roles, groups, tokens): read when the section
 * opens and again after every change the session sees, its rows parsed tolerantly by `read`.
 */
import { PanelLoader } from './panel.svelte.ts';
import { session } from './stores/session.svelte.ts';

type TeamPanel = 'users' | 'roles' | 'domain_groups' | 'tokens';

export class TeamList<T> {
  readonly loader: PanelLoader<TeamPanel>;
  /** The rows; null until the first answer (or kept copy). */
  readonly rows: T[] | null = $derived.by(() =>
    this.loader.result ? this.read(this.loader.result.data) : null,
  );

  /** Call during a component's setup: the read follows the account and the session's changes. */
  constructor(
    panel: TeamPanel,
    accountId: () => number,
    private readonly read: (data: unknown) => T[],
  ) {
    this.loader = new PanelLoader(panel);
    $effect(() => {
      void session.revision;
      void this.loader.load({
        accountId: accountId(),
        ...(panel === 'roles' ? {} : { query: { limit: 100 } }),
      });
    });
  }
}
