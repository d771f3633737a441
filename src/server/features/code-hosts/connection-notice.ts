import type { AppContext } from '../../context.js';
import { appUrl } from '../../http/public-urls.js';
import { claimProblemNotice, findOwnerEmail } from './code-hosts.repository.js';

// The one e-mail a seller gets when a code host stops accepting a connection's credential (issue 30 item 6): sent
// once per problem, however many syncs meet it, by claiming problemNotifiedAt in the same statement that checks it
// is unset. A new problem (or the same after the connection worked again) clears it, and may be told again.

/** E-mails the connection's owner about its current problem unless that was done already. */
export async function notifyConnectionProblemOnce(ctx: AppContext, connectionId: string): Promise<boolean> {
  const claimed = await claimProblemNotice(ctx.db, connectionId, ctx.clock.now());
  if (!claimed) return false;
  const email = await findOwnerEmail(ctx.db, claimed.ownerId);
  if (!email) return true;
  const link = appUrl(ctx.config, '/code-hosts');
  await ctx.mailer.send({
    to: email,
    subject: `Packgate can no longer read your code from ${claimed.label}`,
    text: [
      `The code host refused the credential of your connection ${claimed.label}.`,
      '',
      claimed.problem ?? '',
      '',
      'Your license holders keep installing every version already published; new tags are not published until you connect again.',
      '',
      `Open Code hosts: ${link}`,
    ].join('\n'),
    links: [link],
    reference: `code-host-connection:${connectionId}`,
  });
  return true;
}
