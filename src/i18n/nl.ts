// Dutch messages.
import type { Catalogue } from './catalogue.ts';

export const nl: Catalogue = {
  missing: "Fout voor '{field}'. Deze waarde ontbreekt",
  invalid: "Fout voor '{field}'. De opgegeven waarde is ongeldig.",
  min_length: "Fout voor '{field}'. De opgegeven waarde haalt de minimale lengte niet. ({limit})",
  max_length: "Fout voor '{field}'. De opgegeven waarde overschrijdt de maximale lengte. ({limit})",
  min_items: "Fout voor '{field}'. De opgegeven lijst bevat minder dan het minimale aantal elementen. ({limit})",
  max_items: "Fout voor '{field}'. De opgegeven lijst bevat meer dan het maximale aantal elementen. ({limit})",
  minimum: "Fout voor '{field}'. De opgegeven waarde is kleiner dan het minimum. ({limit})",
  maximum: "Fout voor '{field}'. De opgegeven waarde is groter dan het maximum. ({limit})",
  not_allowed_value: "Fout voor '{field}'. De opgegeven waarde is geen van de toegelaten waarden. ({allowed})",
  field_not_allowed: "Fout voor '{field}'. Dit veld is niet toegelaten.",
  unknown_reference: "Fout voor '{field}'. De opgegeven waarde verwijst niet naar een gekend object.",
  duplicate: "Fout voor '{field}'. De opgegeven waarde wordt meer dan eens gebruikt.",
  owned_elsewhere: "Fout voor '{field}'. De opgegeven waarde behoort al toe aan een andere partij.",
  invalid_json: 'De inhoud van het verzoek is geen geldige JSON.',
  unauthenticated: 'De inloggegevens ontbreken of zijn ongeldig.',
  forbidden_scope: "De inloggegevens geven geen toegang tot de scope '{scope}'.",
  forbidden_distribution: 'De inloggegevens geven geen toegang tot deze distributie.',
  not_found: 'De gevraagde resource werd niet gevonden.',
  conflict_parties: 'De lead komt overeen met twee verschillende partijen.',
  precondition_failed: 'Niet voldaan aan de voorwaarde van het verzoek.',
  payload_too_large: 'De inhoud van het verzoek overschrijdt de maximale grootte. ({limit} bytes)',
  unsupported_media_type: 'De inhoud van het verzoek moet als application/json verstuurd worden.',
  rate_limited: 'Te veel verzoeken. Probeer het later opnieuw.',
  internal: 'Er is een onverwachte fout opgetreden. Probeer het later opnieuw.',
};
