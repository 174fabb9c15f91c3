// The company database (enterprise:read): KBO/BCE enterprises by number, and search by
// name or number prefix (docs/design.md section 6).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { numberPrefix, parseEnterpriseNumber, prefixRange } from './enterprise-number.ts';
import { enterpriseDetail, enterpriseSummary } from './enterprise-representation.ts';
import { queryWords } from '../search/search-text.ts';
import type { EnterpriseReader } from './enterprise-reader.ts';
import { callerLanguage, requireReferenceScope } from '../routes/reference-access.ts';
import { NextLink, page, pageStart, ReferencePageQuery } from '../routes/reference-paging.ts';
import { Enterprise, EnterpriseSummary } from './enterprise.schemas.ts';
import { ReferenceErrors, SearchText, security, Zipcode } from '../routes/reference.schemas.ts';

export const enterpriseRoutes: FastifyPluginAsync<{ reader: EnterpriseReader; publicUrl: string }> = async (
  fastify,
  { reader, publicUrl },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const onRequest = requireReferenceScope('enterprise:read');

  app.get(
    '/enterprises/:number',
    {
      schema: {
        operationId: 'getEnterprise',
        summary: 'One enterprise by its number',
        tags: ['reference data'],
        security,
        description:
          'The number as `0200.065.765`, `0200065765`, `200065765` or `BE0200065765`. A number failing the mod-97 check is 422 on `number`; an unknown one 404.',
        params: Type.Object({ number: Type.String({ maxLength: 40, examples: ['0200.065.765'] }) }),
        response: { 200: Enterprise, ...ReferenceErrors },
      },
      onRequest,
    },
    async (request) => {
      const digits = parseEnterpriseNumber(request.params.number);
      if (!digits) throw new ValidationError([{ target: 'number', code: 'invalid', expected: 'enterprise_number' }]);
      const language = callerLanguage(request);
      const rows = await reader.enterprise(Number(digits), language.toUpperCase() as 'NL');
      if (!rows) throw new NotFoundError('number');
      return enterpriseDetail(rows, language);
    },
  );

  app.get(
    '/enterprises',
    {
      schema: {
        operationId: 'searchEnterprises',
        summary: 'Search enterprises by name or number',
        tags: ['reference data'],
        security,
        description:
          'Any word prefix of any name or abbreviation ("vene" finds "Intergemeentelijke Vereniging Veneco"), accents and case ignored, best match first; or a number being typed, with or without dots or `BE`. `zipcode` keeps enterprises whose registered office is there.',
        querystring: Type.Object(
          { q: SearchText('vene'), zipcode: Type.Optional(Zipcode), ...ReferencePageQuery },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ items: Type.Array(EnterpriseSummary), next: NextLink }, { title: 'EnterpriseList' }),
          ...ReferenceErrors,
        },
      },
      onRequest,
    },
    async (request) => {
      const { q, zipcode, limit = 20, cursor } = request.query;
      const offset = pageStart(cursor);
      const prefix = numberPrefix(q);
      const words = queryWords(q);
      if (prefix === undefined && words.length === 0)
        throw new ValidationError([{ target: 'q', code: 'invalid', expected: 'search_text' }]);
      const ranges =
        prefix === undefined
          ? undefined
          : // Typed without its leading zero ("200065"), a number may start with 0 too.
            prefix.length < 10 && !prefix.startsWith('0')
            ? [prefixRange(prefix), prefixRange(`0${prefix}`)]
            : [prefixRange(prefix)];
      const language = callerLanguage(request);
      const rows = await reader.searchEnterprises(
        {
          ...(ranges ? { numberRanges: ranges } : { words }),
          ...(zipcode !== undefined && { zipcode }),
          offset,
          limit: limit + 1,
        },
        language.toUpperCase() as 'NL',
      );
      return page(rows, offset, limit, (row) => enterpriseSummary(row, language), publicUrl, request.url);
    },
  );
};
