import type { CodeHost, CodeHostUser } from '../../adapters/codehost/code-host.js';
import type { AppContext } from '../../context.js';
import type { CodeHostConnectionKind, codeHostConnections } from '../../db/schema/index.js';

// A driver turns a stored connection into a working code host: it decrypts or mints the credentials the host needs
// (an installation token, a refreshed OAuth token, a password) for this one use. One driver per kind of connection,
// registered in connection-drivers.ts.

export type CodeHostConnection = typeof codeHostConnections.$inferSelect;

export type OpenedConnection = { host: CodeHost; user: CodeHostUser };

export interface ConnectionDriver {
  readonly kind: CodeHostConnectionKind;
  /**
   * Mints or refreshes credentials as needed; throws CodeHostError('UNAUTHORIZED', …) when the host refuses them, and
   * AppError('CONFLICT', …) when this server is not configured to reach the host.
   */
  open(ctx: AppContext, connection: CodeHostConnection): Promise<OpenedConnection>;
  /** What the connection may access, in words for the Code hosts page; defaults to its stored scopes. */
  describeAccess?(connection: CodeHostConnection): string;
}
