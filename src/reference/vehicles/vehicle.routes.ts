// The car database (vehicle:read): the EEA catalogue by make, model and version, and VIN
// decoding per ISO 3779 (docs/design.md section 6).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { versionItem } from './vehicle-representation.ts';
import { queryWords } from '../search/search-text.ts';
import type { VehicleReader } from './vehicle-reader.ts';
import { checkVin, decodeVin } from './vin/vin.ts';
import { requireReferenceScope } from '../routes/reference-access.ts';
import { NextLink, page, pageStart, ReferencePageQuery } from '../routes/reference-paging.ts';
import { Count, DecodedVin, VehicleVersion } from './vehicle.schemas.ts';
import { ReferenceErrors, security } from '../routes/reference.schemas.ts';

export const vehicleRoutes: FastifyPluginAsync<{ reader: VehicleReader; publicUrl: string }> = async (
  fastify,
  { reader, publicUrl },
) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const onRequest = requireReferenceScope('vehicle:read');
  const tags = ['reference data'];

  app.get(
    '/vehicles/brands',
    {
      schema: {
        operationId: 'listVehicleBrands',
        summary: 'Every make with its number of versions',
        tags,
        security,
        querystring: Type.Object(ReferencePageQuery, { additionalProperties: false }),
        response: {
          200: Type.Object(
            { items: Type.Array(Count('VehicleBrand', 'VOLKSWAGEN')), next: NextLink },
            { title: 'VehicleBrandList' },
          ),
          ...ReferenceErrors,
        },
      },
      onRequest,
    },
    async (request) => {
      const { limit = 20, cursor } = request.query;
      const offset = pageStart(cursor);
      const rows = await reader.brands({ offset, limit: limit + 1 });
      return page(
        rows,
        offset,
        limit,
        (row) => ({ name: String(row.name), versions: Number(row.versions) }),
        publicUrl,
        request.url,
      );
    },
  );

  app.get(
    '/vehicles/brands/:brand/models',
    {
      schema: {
        operationId: 'listVehicleModels',
        summary: 'The models (commercial names) of a make',
        tags,
        security,
        params: Type.Object({ brand: Type.String({ minLength: 1, maxLength: 100, examples: ['VOLKSWAGEN'] }) }),
        querystring: Type.Object(ReferencePageQuery, { additionalProperties: false }),
        response: {
          200: Type.Object(
            { items: Type.Array(Count('VehicleModel', 'GOLF')), next: NextLink },
            { title: 'VehicleModelList' },
          ),
          ...ReferenceErrors,
        },
      },
      onRequest,
    },
    async (request) => {
      const { limit = 20, cursor } = request.query;
      const offset = pageStart(cursor);
      const rows = await reader.models(request.params.brand.trim().toUpperCase(), { offset, limit: limit + 1 });
      if (!rows) throw new NotFoundError('brand');
      return page(
        rows,
        offset,
        limit,
        (row) => ({ name: String(row.name), versions: Number(row.versions) }),
        publicUrl,
        request.url,
      );
    },
  );

  app.get(
    '/vehicles/versions',
    {
      schema: {
        operationId: 'searchVehicleVersions',
        summary: 'Versions by make, model, fuel, year or free text',
        tags,
        security,
        description:
          'Most registered first; with `q` (word prefixes of make, model, type, variant, version or fuel) the best match first.',
        querystring: Type.Object(
          {
            brand: Type.Optional(Type.String({ minLength: 1, maxLength: 100, examples: ['VOLKSWAGEN'] })),
            model: Type.Optional(Type.String({ minLength: 1, maxLength: 100, examples: ['GOLF'] })),
            fuel: Type.Optional(Type.String({ minLength: 1, maxLength: 50, examples: ['petrol'] })),
            year: Type.Optional(Type.Integer({ minimum: 1900, maximum: 2100, examples: [2023] })),
            q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, examples: ['golf 110'] })),
            ...ReferencePageQuery,
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ items: Type.Array(VehicleVersion), next: NextLink }, { title: 'VehicleVersionList' }),
          ...ReferenceErrors,
        },
      },
      onRequest,
    },
    async (request) => {
      const { brand, model, fuel, year, q, limit = 20, cursor } = request.query;
      const offset = pageStart(cursor);
      const words = q === undefined ? undefined : queryWords(q);
      if (words?.length === 0) throw new ValidationError([{ target: 'q', code: 'invalid', expected: 'search_text' }]);
      const rows = await reader.versions({
        ...(brand !== undefined && { brand: brand.trim().toUpperCase() }),
        ...(model !== undefined && { model: model.trim().toUpperCase() }),
        ...(fuel !== undefined && { fuel: fuel.trim().toLowerCase() }),
        ...(year !== undefined && { year }),
        ...(words && { words }),
        offset,
        limit: limit + 1,
      });
      return page(rows, offset, limit, versionItem, publicUrl, request.url);
    },
  );

  app.get(
    '/vehicles/versions/:id',
    {
      schema: {
        operationId: 'getVehicleVersion',
        summary: 'One version',
        tags,
        security,
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: VehicleVersion, ...ReferenceErrors },
      },
      onRequest,
    },
    async (request) => {
      const row = await reader.version(request.params.id);
      if (!row) throw new NotFoundError('id');
      return versionItem(row);
    },
  );

  app.get(
    '/vehicles/vin/:vin',
    {
      schema: {
        operationId: 'decodeVin',
        summary: 'Decode a VIN (ISO 3779)',
        tags,
        security,
        description:
          'Structure (17 characters, no I, O or Q), WMI to manufacturer, country and region, model-year candidates from position 10, and the check digit where it applies. A malformed VIN is 422 on `vin`.',
        params: Type.Object({ vin: Type.String({ maxLength: 100, examples: ['WVWZZZ1KZAW000001'] }) }),
        response: { 200: DecodedVin, ...ReferenceErrors },
      },
      onRequest,
    },
    async (request) => {
      const checked = checkVin(request.params.vin);
      if ('problem' in checked) {
        const short = request.params.vin.trim().length < 17;
        throw new ValidationError([
          checked.problem === 'length'
            ? { target: 'vin', code: short ? 'min_length' : 'max_length', params: { limit: 17 } }
            : { target: 'vin', code: 'invalid', expected: 'vin' },
        ]);
      }
      const decoded = decodeVin(checked.vin);
      return {
        vin: decoded.vin,
        valid: decoded.check_digit.valid !== false,
        wmi: decoded.wmi,
        manufacturer: decoded.manufacturer?.name ?? null,
        country: decoded.country,
        region: decoded.region,
        model_year: decoded.model_year,
        check_digit: decoded.check_digit,
        brand: (await reader.brandOf(decoded.manufacturer?.makes ?? [])) ?? null,
      };
    },
  );
};
