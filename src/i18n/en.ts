// English messages (DESIGN.md section 3 gives the first three texts verbatim).
import type { Catalogue } from './catalogue.ts';

export const en: Catalogue = {
  missing: "Error for '{field}'. This value is missing",
  invalid: "Error for '{field}'. The specified value is invalid.",
  min_length: "Error for '{field}'. The specified value does not meet the minimum length. ({limit})",
  max_length: "Error for '{field}'. The specified value exceeds the maximum length. ({limit})",
  min_items: "Error for '{field}'. The specified list does not contain the minimum number of items. ({limit})",
  max_items: "Error for '{field}'. The specified list exceeds the maximum number of items. ({limit})",
  minimum: "Error for '{field}'. The specified value is below the minimum. ({limit})",
  maximum: "Error for '{field}'. The specified value is above the maximum. ({limit})",
  not_allowed_value: "Error for '{field}'. The specified value is not one of the allowed values. ({allowed})",
  field_not_allowed: "Error for '{field}'. This field is not allowed.",
  unknown_reference: "Error for '{field}'. The specified value does not refer to a known object.",
  duplicate: "Error for '{field}'. The specified value is used more than once.",
  owned_elsewhere: "Error for '{field}'. The specified value already belongs to another party.",
  invalid_json: 'The request body is not valid JSON.',
  unauthenticated: 'The credentials are missing or not valid.',
  forbidden_scope: "The credentials do not grant the scope '{scope}'.",
  forbidden_distribution: 'The credentials do not give access to this distribution.',
  not_found: 'The requested resource was not found.',
  conflict_parties: 'The lead matches two different parties.',
  precondition_failed: 'The precondition of the request was not met.',
  payload_too_large: 'The request body exceeds the maximum size. ({limit} bytes)',
  unsupported_media_type: 'The request body must be sent as application/json.',
  rate_limited: 'Too many requests. Please try again later.',
  internal: 'An unexpected error occurred. Please try again later.',
};
