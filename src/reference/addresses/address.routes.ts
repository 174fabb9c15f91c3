// The address database (address:read): BeST addresses by id, autocomplete from free text
// in any of the three languages, and postal codes for forms (docs/design.md section 6).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { addressItem, postalCodeItem } from './address-representation.ts';
import { queryWords } from '../search/search-text.ts';
import type { AddressReader } from './address-reader.ts';
import { callerLanguage, requireReferenceScope } from '../routes/reference-access.ts';
import { NextLink, page, pageStart, ReferencePageQuery } from '../routes/reference-paging.ts';
import { Address, PostalCode } from './address.schemas.ts';
import { ReferenceErrors, SearchText, security, Zipcode } from '../routes/reference.schemas.ts';

export const addressRoutes: FastifyPluginAsync<{ reader: AddressReader; publicUrl: string }> = async (
  fastify,
  { reader, publicUrl },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const onRequest = requireReferenceScope('address:read');

  app.get(
    '/addresses',
    {
      schema: {
        operationId: 'searchAddresses',
        summary: 'Address autocomplete',
        tags: ['reference data'],
        security,
        description:
          'Free text in Dutch, French or German, words in any order, each a prefix: "Wetstraat 16 Brussel" and "rue de la loi 16 1000" find the same address. Exact words rank before longer ones ("16" before "160"). Only current BeST addresses.',
        querystring: Type.Object(
          {
            q: SearchText('Wetstraat 16 Brussel'),
            zipcode: Type.Optional(Zipcode),
            municipality: Type.Optional(Type.String({ minLength: 1, maxLength: 100, examples: ['Bruxelles'] })),
            ...ReferencePageQuery,
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ items: Type.Array(Address), next: NextLink }, { title: 'AddressList' }),
          ...ReferenceErrors,
        },
      },
      onRequest,
    },
    async (request) => {
      const { q, zipcode, municipality, limit = 20, cursor } = request.query;
      const offset = pageStart(cursor);
      const words = queryWords(q);
      const place = municipality === undefined ? undefined : queryWords(municipality);
      const problems = [
        ...(words.length === 0 ? [{ target: 'q', code: 'invalid' as const, expected: 'search_text' as const }] : []),
        ...(place?.length === 0
          ? [{ target: 'municipality', code: 'invalid' as const, expected: 'search_text' as const }]
          : []),
      ];
      if (problems.length > 0) throw new ValidationError(problems);
      const rows = await reader.searchAddresses({
        words,
        ...(zipcode !== undefined && { zipcode }),
        ...(place && { municipality: place }),
        offset,
        limit: limit + 1,
      });
      const language = callerLanguage(request);
      return page(rows, offset, limit, (row) => addressItem(row, language, words), publicUrl, request.url);
    },
  );

  app.get(
    '/addresses/:id',
    {
      schema: {
        operationId: 'getAddress',
        summary: 'One address by its BeST id',
        tags: ['reference data'],
        security,
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, examples: ['1000000'] }) }),
        response: { 200: Address, ...ReferenceErrors },
      },
      onRequest,
    },
    async (request) => {
      const row = await reader.address(request.params.id);
      if (!row) throw new NotFoundError('id');
      return addressItem(row, callerLanguage(request));
    },
  );

  app.get(
    '/postal-codes',
    {
      schema: {
        operationId: 'searchPostalCodes',
        summary: 'Postal codes with their municipality and post names',
        tags: ['reference data'],
        security,
        description:
          'By postcode prefix or name prefix ("10", "brux", "liege"); without `q`, all of them in postcode order.',
        querystring: Type.Object(
          { q: Type.Optional(Type.String({ maxLength: 100, examples: ['brux'] })), ...ReferencePageQuery },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ items: Type.Array(PostalCode), next: NextLink }, { title: 'PostalCodeList' }),
          ...ReferenceErrors,
        },
      },
      onRequest,
    },
    async (request) => {
      const { q = '', limit = 20, cursor } = request.query;
      const offset = pageStart(cursor);
      const rows = await reader.postalCodes(queryWords(q), { offset, limit: limit + 1 });
      return page(rows, offset, limit, postalCodeItem, publicUrl, request.url);
    },
  );
};
