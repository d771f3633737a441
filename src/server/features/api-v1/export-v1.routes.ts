import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCOUNT_EXPORT_LISTS } from '../../../contract/account.js';
import { apiV1ErrorSchema } from '../../../contract/api-v1.js';
import type { AppContext } from '../../context.js';
import { tokenOf } from '../../http/principal.js';
import * as accounts from '../accounts/accounts.service.js';

// The seller's data export in API v1 (issue 35 item 5): the same archive as Settings' "Download export". It holds
// holders' addresses, sales and the audit trail, more than any one scope reads, so only a full-access token (`*`)
// may take it.

export async function exportV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/export',
    {
      config: { apiPermission: '*' },
      schema: {
        tags: ['Account'],
        operationId: 'exportAccountData',
        summary: "Download the account's data",
        description:
          'Answers `packgate-export-{slug}-{date}.tar.gz` (application/gzip, not the JSON envelope): `data.json` with ' +
          `the account and every list, and one CSV per list (${ACCOUNT_EXPORT_LISTS.join(', ')}). Only the ` +
          "seller's own rows; no token, token hash or signing secret. CSV cells that a spreadsheet would read as a " +
          'formula start with an apostrophe. Add `-o packgate-export.tar.gz` to the cURL sample to save it: curl ' +
          'does not write binary data to a terminal.',
        // The archive itself is a stream, not JSON; refusals come in the API's error envelope.
        response: {
          200: z.unknown().describe('The archive, application/gzip: packgate-export-{slug}-{date}.tar.gz'),
          '4XX': apiV1ErrorSchema,
          '5XX': apiV1ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const archive = await accounts.exportAccountForToken(ctx, tokenOf(request.principal));
      return reply.headers(accounts.exportDownloadHeaders(archive)).send(archive.stream);
    },
  );
}
