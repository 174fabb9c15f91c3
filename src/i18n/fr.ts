// French messages.
import type { Catalogue } from './catalogue.ts';

export const fr: Catalogue = {
  missing: "Erreur pour '{field}'. Cette valeur est manquante",
  invalid: "Erreur pour '{field}'. La valeur spécifiée n'est pas valide.",
  min_length: "Erreur pour '{field}'. La valeur spécifiée n'atteint pas la longueur minimale. ({limit})",
  max_length: "Erreur pour '{field}'. La valeur spécifiée dépasse la longueur maximale. ({limit})",
  min_items: "Erreur pour '{field}'. La liste spécifiée ne contient pas le nombre minimal d'éléments. ({limit})",
  max_items: "Erreur pour '{field}'. La liste spécifiée dépasse le nombre maximal d'éléments. ({limit})",
  minimum: "Erreur pour '{field}'. La valeur spécifiée est inférieure au minimum. ({limit})",
  maximum: "Erreur pour '{field}'. La valeur spécifiée est supérieure au maximum. ({limit})",
  not_allowed_value:
    "Erreur pour '{field}'. La valeur spécifiée ne fait pas partie des valeurs autorisées. ({allowed})",
  field_not_allowed: "Erreur pour '{field}'. Ce champ n'est pas autorisé.",
  unknown_reference: "Erreur pour '{field}'. La valeur spécifiée ne fait référence à aucun objet connu.",
  duplicate: "Erreur pour '{field}'. La valeur spécifiée est utilisée plus d'une fois.",
  owned_elsewhere: "Erreur pour '{field}'. La valeur spécifiée appartient déjà à une autre partie.",
  invalid_json: "Le corps de la requête n'est pas du JSON valide.",
  unauthenticated: 'Les identifiants sont manquants ou non valides.',
  forbidden_scope: "Les identifiants n'accordent pas le scope '{scope}'.",
  forbidden_distribution: 'Les identifiants ne donnent pas accès à cette distribution.',
  not_found: 'La ressource demandée est introuvable.',
  conflict_parties: 'Le lead correspond à deux parties différentes.',
  precondition_failed: "La condition préalable de la requête n'est pas remplie.",
  payload_too_large: 'Le corps de la requête dépasse la taille maximale. ({limit} octets)',
  unsupported_media_type: 'Le corps de la requête doit être envoyé en application/json.',
  rate_limited: 'Trop de requêtes. Veuillez réessayer plus tard.',
  bad_request: "La requête n'est pas du HTTP/1.1 valide.",
  request_timeout: "La requête n'a pas été reçue entièrement dans les {limit} secondes.",
  headers_too_large: 'Les en-têtes de la requête dépassent la taille maximale.',
  expectation_failed:
    "L'attente de l'en-tête Expect ne peut pas être satisfaite : seul 100-continue est pris en charge.",
  shutting_down: "Le service s'arrête. Veuillez renvoyer la requête.",
  invalid_encoding: "Le corps de la requête n'est pas de l'UTF-8 valide.",
  unsupported_charset: "Le JSON est accepté en UTF-8 uniquement, pas en '{charset}'.",
  invalid_text: "Erreur pour '{field}'. Le texte contient un caractère NUL ou un demi-codet isolé.",
  not_finite: "Erreur pour '{field}'. Le nombre indiqué est hors limites.",
  too_deep: "Erreur pour '{field}'. La valeur est imbriquée trop profondément. ({limit} niveaux)",
  idempotency_key_reused:
    'Cette clé a déjà été utilisée pour une autre requête. Utilisez une nouvelle clé pour une nouvelle requête.',
  idempotency_conflict: "Une requête avec cette clé est encore en cours. Réessayez lorsqu'elle sera terminée.",
  internal: "Une erreur inattendue s'est produite. Veuillez réessayer plus tard.",
};
