// A typed method per operation of the lead-intake API, over openapi-fetch and the types
// openapi-typescript generates from the API's OpenAPI document (src/schema.d.ts). Each
// method answers openapi-fetch's `{ data, error, response }`: `data` typed by the
// operation's success body, `error` by its error body (ErrorBody). The distribution an
// API token is bound to is given once, to the client.
import createClient, { type Client } from 'openapi-fetch';
import { PreparedRequest, type RetryOptions, retryingFetch, type Send } from './retry.ts';
import type { CompanyLead, CustomerLead, LeadBatch, LeadPatch, operations, PartyPatch, paths } from './schema.d.ts';

export interface LeadIntakeClientOptions {
  /** Where the API is served, e.g. https://leads.example.com (no trailing /v1/api). */
  readonly baseUrl: string;
  /** An API token (sent as `apikey <token>`), or an SSO access token as `{ accessToken }` (sent as `bearer`). */
  readonly token: string | { readonly accessToken: string };
  /** The distribution the token is bound to: every /distributions/{id}/ path uses it. */
  readonly distributionId: string;
  readonly retry?: RetryOptions;
  /** The fetch to send with (default globalThis.fetch): a test double, a proxy agent's. */
  readonly fetch?: Send;
}

/** Options of a write: its Idempotency-Key (a UUID unless given) and, for PATCH, If-Match. */
export interface WriteOptions {
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
}
export interface PatchOptions extends WriteOptions {
  /** The ETag of your last read: the PATCH is refused with 412 if the resource changed since. */
  readonly ifMatch?: string;
}
export interface ReadOptions {
  readonly signal?: AbortSignal;
}

type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

export function createLeadIntakeClient(options: LeadIntakeClientOptions) {
  const authorization =
    typeof options.token === 'string' ? `apikey ${options.token}` : `bearer ${options.token.accessToken}`;
  const send: Send = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const api: Client<paths> = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization },
    Request: PreparedRequest as unknown as typeof Request,
    fetch: retryingFetch(send, options.retry) as unknown as (request: Request) => Promise<Response>,
  });
  const distribution_id = options.distributionId;
  const write = (init: WriteOptions = {}) => ({
    ...(init.signal && { signal: init.signal }),
    headers: init.idempotencyKey === undefined ? {} : { 'idempotency-key': init.idempotencyKey },
  });
  const patch = (init: PatchOptions = {}) => ({
    ...write(init),
    params_header: init.ifMatch === undefined ? {} : { 'if-match': init.ifMatch },
  });
  const read = (init: ReadOptions = {}) => (init.signal ? { signal: init.signal } : {});

  return {
    /** The openapi-fetch client underneath, for calls the methods below do not cover. */
    api,

    // Leads (docs/api.md, "Pushing a lead", "Reading and updating").
    pushCustomerLead: (body: CustomerLead, init?: WriteOptions) =>
      api.POST('/v1/api/distributions/{distribution_id}/leads/customers', {
        params: { path: { distribution_id } },
        body,
        ...write(init),
      }),
    pushCompanyLead: (body: CompanyLead, init?: WriteOptions) =>
      api.POST('/v1/api/distributions/{distribution_id}/leads/companies', {
        params: { path: { distribution_id } },
        body,
        ...write(init),
      }),
    /** Up to 100 leads of both kinds, each applied as its single push (docs/api.md, "Pushing many leads at once"). */
    pushLeadBatch: (body: LeadBatch, init?: WriteOptions) =>
      api.POST('/v1/api/distributions/{distribution_id}/leads/batch', {
        params: { path: { distribution_id } },
        body,
        ...write(init),
      }),
    getLead: (lead_id: string, init?: ReadOptions) =>
      api.GET('/v1/api/distributions/{distribution_id}/leads/{lead_id}', {
        params: { path: { distribution_id, lead_id } },
        ...read(init),
      }),
    updateLead: (lead_id: string, body: LeadPatch, init?: PatchOptions) => {
      const { params_header, ...rest } = patch(init);
      return api.PATCH('/v1/api/distributions/{distribution_id}/leads/{lead_id}', {
        params: { path: { distribution_id, lead_id }, header: params_header },
        body,
        ...rest,
      });
    },
    listLeads: (query: Query<'listLeads'> = {}, init?: ReadOptions) =>
      api.GET('/v1/api/distributions/{distribution_id}/leads', {
        params: { path: { distribution_id }, query },
        ...read(init),
      }),
    listLeadPushes: (lead_id: string, query: Query<'listLeadPushes'> = {}, init?: ReadOptions) =>
      api.GET('/v1/api/distributions/{distribution_id}/leads/{lead_id}/pushes', {
        params: { path: { distribution_id, lead_id }, query },
        ...read(init),
      }),

    // Parties.
    getParty: (party_id: string, init?: ReadOptions) =>
      api.GET('/v1/api/distributions/{distribution_id}/parties/{party_id}', {
        params: { path: { distribution_id, party_id } },
        ...read(init),
      }),
    updateParty: (party_id: string, body: PartyPatch, init?: PatchOptions) => {
      const { params_header, ...rest } = patch(init);
      return api.PATCH('/v1/api/distributions/{distribution_id}/parties/{party_id}', {
        params: { path: { distribution_id, party_id }, header: params_header },
        body,
        ...rest,
      });
    },
    /** Erases the person (docs/personal-data.md, "Answering an erasure request"): a receipt without personal data. */
    eraseParty: (party_id: string, init?: WriteOptions) =>
      api.DELETE('/v1/api/distributions/{distribution_id}/parties/{party_id}', {
        params: { path: { distribution_id, party_id } },
        ...write(init),
      }),
    /** Everything kept about the person, as one JSON document. */
    exportParty: (party_id: string, init?: ReadOptions) =>
      api.GET('/v1/api/distributions/{distribution_id}/parties/{party_id}/export', {
        params: { path: { distribution_id, party_id } },
        ...read(init),
      }),
    /** Joins party `from` into `party_id` (the survivor); the answer is the survivor. */
    mergeParties: (party_id: string, body: { from: string }, init?: PatchOptions) => {
      const { params_header, ...rest } = patch(init);
      return api.POST('/v1/api/distributions/{distribution_id}/parties/{party_id}/merge', {
        params: { path: { distribution_id, party_id }, header: params_header },
        body,
        ...rest,
      });
    },
    /** Other parties sharing an e-mail, telephone, VIN, enterprise number or birth date and close name, strongest first. */
    listPossibleDuplicates: (party_id: string, init?: ReadOptions) =>
      api.GET('/v1/api/distributions/{distribution_id}/parties/{party_id}/duplicates', {
        params: { path: { distribution_id, party_id } },
        ...read(init),
      }),
    listRiskObjectRevisions: (party_id: string, risk_object_id: string, init?: ReadOptions) =>
      api.GET('/v1/api/distributions/{distribution_id}/parties/{party_id}/risk_objects/{risk_object_id}/revisions', {
        params: { path: { distribution_id, party_id, risk_object_id } },
        ...read(init),
      }),
    getRiskObjectRevision: (party_id: string, risk_object_id: string, revision_id: string, init?: ReadOptions) =>
      api.GET(
        '/v1/api/distributions/{distribution_id}/parties/{party_id}/risk_objects/{risk_object_id}/revisions/{revision_id}',
        { params: { path: { distribution_id, party_id, risk_object_id, revision_id } }, ...read(init) },
      ),

    // Users.
    /** The distribution's active users: the ids a lead's `assignee` accepts. */
    listUsers: (init?: ReadOptions) =>
      api.GET('/v1/api/distributions/{distribution_id}/users', {
        params: { path: { distribution_id } },
        ...read(init),
      }),

    // Where leads come from (docs/api.md).
    /** Per origin and per sender, a period's pushes and what became of their leads (`format: 'csv'` for CSV). */
    getSourceStats: (query: Query<'getSourceStats'>, init?: ReadOptions) =>
      api.GET('/v1/api/distributions/{distribution_id}/stats/sources', {
        params: { path: { distribution_id }, query },
        ...read(init),
      }),

    // Reference data (docs/reference-data.md, "Reference databases").
    getEnterprise: (number: string, init?: ReadOptions) =>
      api.GET('/v1/api/enterprises/{number}', { params: { path: { number } }, ...read(init) }),
    searchEnterprises: (query: Query<'searchEnterprises'>, init?: ReadOptions) =>
      api.GET('/v1/api/enterprises', { params: { query }, ...read(init) }),
    searchAddresses: (query: Query<'searchAddresses'>, init?: ReadOptions) =>
      api.GET('/v1/api/addresses', { params: { query }, ...read(init) }),
    getAddress: (id: string, init?: ReadOptions) =>
      api.GET('/v1/api/addresses/{id}', { params: { path: { id } }, ...read(init) }),
    searchPostalCodes: (query: Query<'searchPostalCodes'>, init?: ReadOptions) =>
      api.GET('/v1/api/postal-codes', { params: { query }, ...read(init) }),
    listVehicleBrands: (query: Query<'listVehicleBrands'> = {}, init?: ReadOptions) =>
      api.GET('/v1/api/vehicles/brands', { params: { query }, ...read(init) }),
    listVehicleModels: (brand: string, query: Query<'listVehicleModels'> = {}, init?: ReadOptions) =>
      api.GET('/v1/api/vehicles/brands/{brand}/models', { params: { path: { brand }, query }, ...read(init) }),
    searchVehicleVersions: (query: Query<'searchVehicleVersions'> = {}, init?: ReadOptions) =>
      api.GET('/v1/api/vehicles/versions', { params: { query }, ...read(init) }),
    getVehicleVersion: (id: string, init?: ReadOptions) =>
      api.GET('/v1/api/vehicles/versions/{id}', { params: { path: { id } }, ...read(init) }),
    decodeVin: (vin: string, init?: ReadOptions) =>
      api.GET('/v1/api/vehicles/vin/{vin}', { params: { path: { vin } }, ...read(init) }),

    // The signed-in SSO user, and the operational probes.
    userinfo: (init?: ReadOptions) => api.GET('/sso/userinfo', { ...read(init) }),
    getHealth: (init?: ReadOptions) => api.GET('/healthz', { ...read(init) }),
    getReadiness: (init?: ReadOptions) => api.GET('/readyz', { ...read(init) }),
    getMetrics: (init?: ReadOptions) => api.GET('/metrics', { parseAs: 'text', ...read(init) }),
  };
}

export type LeadIntakeClient = ReturnType<typeof createLeadIntakeClient>;
