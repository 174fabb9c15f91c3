// German messages.
import type { Catalogue } from './catalogue.ts';

export const de: Catalogue = {
  missing: "Fehler für '{field}'. Dieser Wert fehlt",
  invalid: "Fehler für '{field}'. Der angegebene Wert ist ungültig.",
  min_length: "Fehler für '{field}'. Der angegebene Wert unterschreitet die Mindestlänge. ({limit})",
  max_length: "Fehler für '{field}'. Der angegebene Wert überschreitet die Höchstlänge. ({limit})",
  min_items: "Fehler für '{field}'. Die angegebene Liste enthält weniger als die Mindestanzahl an Elementen. ({limit})",
  max_items: "Fehler für '{field}'. Die angegebene Liste überschreitet die Höchstanzahl an Elementen. ({limit})",
  minimum: "Fehler für '{field}'. Der angegebene Wert liegt unter dem Minimum. ({limit})",
  maximum: "Fehler für '{field}'. Der angegebene Wert liegt über dem Maximum. ({limit})",
  not_allowed_value: "Fehler für '{field}'. Der angegebene Wert ist keiner der zulässigen Werte. ({allowed})",
  field_not_allowed: "Fehler für '{field}'. Dieses Feld ist nicht zulässig.",
  unknown_reference: "Fehler für '{field}'. Der angegebene Wert verweist auf kein bekanntes Objekt.",
  duplicate: "Fehler für '{field}'. Der angegebene Wert wird mehrfach verwendet.",
  owned_elsewhere: "Fehler für '{field}'. Der angegebene Wert gehört bereits zu einer anderen Partei.",
  invalid_json: 'Der Inhalt der Anfrage ist kein gültiges JSON.',
  unauthenticated: 'Die Anmeldedaten fehlen oder sind ungültig.',
  forbidden_scope: "Die Anmeldedaten gewähren den Scope '{scope}' nicht.",
  forbidden_distribution: 'Die Anmeldedaten gewähren keinen Zugriff auf diese Distribution.',
  not_found: 'Die angeforderte Ressource wurde nicht gefunden.',
  conflict_parties: 'Der Lead passt zu zwei verschiedenen Parteien.',
  precondition_failed: 'Die Vorbedingung der Anfrage ist nicht erfüllt.',
  payload_too_large: 'Der Inhalt der Anfrage überschreitet die maximale Größe. ({limit} Bytes)',
  unsupported_media_type: 'Der Inhalt der Anfrage muss als application/json gesendet werden.',
  rate_limited: 'Zu viele Anfragen. Bitte versuchen Sie es später erneut.',
  internal: 'Ein unerwarteter Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.',
};
