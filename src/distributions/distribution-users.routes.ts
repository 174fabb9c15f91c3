// The distribution's users for partners (docs/api.md, "Users"), with `parties:read`:
//   GET /distributions/{did}/users
// A partner learns here which ids a lead's `assignee` accepts (docs/design.md section 13):
// the active users only, each as id, username and name, never an e-mail or a role.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { requireScope } from '../auth/authorize.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { ErrorBody } from '../http/error-body.schema.ts';
import { listActiveUsersOf } from '../sso/index.ts';

export interface DistributionUsersRoutesOptions {
  readonly database: DatabaseHandle;
}

export const DistributionUser = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'What `assignee` takes.' }),
    username: Type.String({ examples: ['jan'] }),
    name: Type.String({ description: 'The name colleagues read; the username when none was given.' }),
  },
  { additionalProperties: false, title: 'DistributionUser' },
);

const DistributionUserList = Type.Object(
  { items: Type.Array(DistributionUser) },
  { additionalProperties: false, title: 'DistributionUserList' },
);

export const distributionUsersRoutes: FastifyPluginAsync<DistributionUsersRoutesOptions> = async (
  fastify,
  { database },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/distributions/:distribution_id/users',
    {
      schema: {
        operationId: 'listUsers',
        summary: "The distribution's users",
        tags: ['users'],
        security: [{ apikey: [] }, { bearer: [] }],
        description:
          'The active users of the distribution, by username: the ids a lead’s `assignee` accepts. A disabled user is left out.',
        params: Type.Object({ distribution_id: Type.String() }),
        response: { 200: DistributionUserList, 401: ErrorBody, 403: ErrorBody },
      },
      onRequest: requireScope('parties:read'),
    },
    async (request) => ({ items: await listActiveUsersOf(database.db, request.params.distribution_id) }),
  );
};
