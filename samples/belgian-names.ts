// Word lists the sample generator draws from: real Belgian municipalities with their
// postcodes and names in nl/fr/de, and street names as each region writes them.

export interface Municipality {
  readonly nis: string;
  readonly zipcode: string;
  readonly region: 'BE-VLG' | 'BE-BRU' | 'BE-WAL';
  readonly nl: string | null;
  readonly fr: string | null;
  readonly de: string | null;
  /** Streets as [nl, fr, de]; null where the region has no name in that language. */
  readonly streets: readonly (readonly [string | null, string | null, string | null])[];
  readonly lat: number;
  readonly lon: number;
}

const FLEMISH = ['Kerkstraat', 'Stationsstraat', 'Dorpsstraat', 'Molenstraat', 'Nieuwstraat', 'Schoolstraat', 'Kapelstraat', 'Veldstraat', 'Grote Markt', 'Lindelaan'];
const WALLOON = ['Rue de la Station', "Rue de l'Église", 'Rue du Moulin', 'Chaussée de Bruxelles', 'Avenue des Tilleuls', 'Rue Haute', 'Place Saint-Lambert', 'Rue des Écoles', 'Grand-Place', 'Rue du Château'];
const BRUSSELS: readonly (readonly [string, string])[] = [['Wetstraat', 'Rue de la Loi'], ['Louizalaan', 'Avenue Louise'], ['Nieuwstraat', 'Rue Neuve'],
  ['Koningsstraat', 'Rue Royale'], ['Zuidlaan', 'Boulevard du Midi'], ['Kunstberg', 'Mont des Arts'], ['Elsensesteenweg', "Chaussée d'Ixelles"], ['Haachtsesteenweg', 'Chaussée de Haecht']];
const GERMAN: readonly (readonly [string, string])[] = [['Kirchstraße', "Rue de l'Église"], ['Bahnhofstraße', 'Rue de la Gare'], ['Aachener Straße', "Rue d'Aix-la-Chapelle"], ['Marktplatz', 'Place du Marché']];

const flemish = (nis: string, zipcode: string, nl: string, fr: string | null, lat: number, lon: number): Municipality =>
  ({ nis, zipcode, region: 'BE-VLG', nl, fr, de: null, streets: FLEMISH.map((s) => [s, null, null] as const), lat, lon });
const walloon = (nis: string, zipcode: string, fr: string, nl: string | null, lat: number, lon: number): Municipality =>
  ({ nis, zipcode, region: 'BE-WAL', nl, fr, de: null, streets: WALLOON.map((s) => [null, s, null] as const), lat, lon });
const brussels = (nis: string, zipcode: string, nl: string, fr: string, lat: number, lon: number): Municipality =>
  ({ nis, zipcode, region: 'BE-BRU', nl, fr, de: null, streets: BRUSSELS.map(([n, f]) => [n, f, null] as const), lat, lon });

export const MUNICIPALITIES: readonly Municipality[] = [
  brussels('21004', '1000', 'Brussel', 'Bruxelles', 50.8466, 4.3528),
  brussels('21009', '1050', 'Elsene', 'Ixelles', 50.8333, 4.3667),
  brussels('21015', '1030', 'Schaarbeek', 'Schaerbeek', 50.8676, 4.3737),
  flemish('11002', '2000', 'Antwerpen', 'Anvers', 51.2194, 4.4025),
  flemish('44021', '9000', 'Gent', 'Gand', 51.0543, 3.7174),
  flemish('24062', '3000', 'Leuven', 'Louvain', 50.8798, 4.7005),
  flemish('31005', '8000', 'Brugge', 'Bruges', 51.2093, 3.2247),
  flemish('71022', '3500', 'Hasselt', null, 50.9307, 5.3325),
  flemish('12025', '2800', 'Mechelen', 'Malines', 51.0259, 4.4776),
  flemish('34022', '8500', 'Kortrijk', 'Courtrai', 50.8280, 3.2649),
  walloon('62063', '4000', 'Liège', 'Luik', 50.6326, 5.5797),
  walloon('92094', '5000', 'Namur', 'Namen', 50.4674, 4.8720),
  walloon('52011', '6000', 'Charleroi', null, 50.4108, 4.4446),
  walloon('53053', '7000', 'Mons', 'Bergen', 50.4542, 3.9523),
  { nis: '63023', zipcode: '4700', region: 'BE-WAL', nl: null, fr: 'Eupen', de: 'Eupen', streets: GERMAN.map(([d, f]) => [null, f, d] as const), lat: 50.6285, lon: 6.0361 },
  { nis: '63067', zipcode: '4780', region: 'BE-WAL', nl: null, fr: 'Saint-Vith', de: 'Sankt Vith', streets: GERMAN.map(([d, f]) => [null, f, d] as const), lat: 50.2804, lon: 6.1276 },
];

export const SURNAMES = ['Peeters', 'Janssens', 'Maes', 'Jacobs', 'Mertens', 'Willems', 'Claes', 'Goossens', 'Wouters', 'De Smet',
  'Dubois', 'Lambert', 'Dupont', 'Martin', 'Simon', 'Laurent', 'Lejeune', 'Renard', 'Vandenberghe', 'Van Damme', 'Schmitz', 'Lenaerts', 'Dumont', 'Leclercq'];

/** [nl trade, fr trade, NACE 2008 code, nl description, fr description] */
export const TRADES: readonly (readonly [string, string, string, string, string])[] = [
  ['Bakkerij', 'Boulangerie', '10711', 'Ambachtelijke vervaardiging van brood en van vers banketbakkerswerk', 'Fabrication artisanale de pain et de pâtisserie fraîche'],
  ['Garage', 'Garage', '45203', 'Algemeen onderhoud en reparatie van motorvoertuigen', "Entretien et réparation générale de véhicules automobiles"],
  ['Apotheek', 'Pharmacie', '47730', 'Apotheken', 'Commerce de détail de produits pharmaceutiques en magasin spécialisé'],
  ['Bouwbedrijf', 'Construction', '41201', 'Algemene bouw van residentiële gebouwen', 'Construction générale de bâtiments résidentiels'],
  ['Immo', 'Immo', '68311', 'Bemiddeling bij de aankoop, verkoop en verhuur van onroerend goed', "Intermédiation en achat, vente et location de biens immobiliers"],
  ['Verzekeringen', 'Assurances', '66220', 'Activiteiten van verzekeringsagenten en -makelaars', "Activités des agents et courtiers d'assurances"],
  ['Brasserie', 'Brasserie', '56101', 'Eetgelegenheden met volledige bediening', 'Restauration à service complet'],
  ['Advocatenkantoor', "Cabinet d'avocats", '69101', 'Activiteiten van advocaten', 'Activités des avocats'],
  ['IT Consult', 'IT Consult', '62020', 'Advies op het gebied van informatietechnologie', 'Conseil informatique'],
  ['Transport', 'Transports', '49410', 'Goederenvervoer over de weg', 'Transports routiers de fret'],
];

/** [code, nl, fr, de, suffix nl, suffix fr] KBO juridical forms. */
export const JURIDICAL_FORMS: readonly (readonly [string, string, string, string, string, string])[] = [
  ['610', 'Besloten Vennootschap', 'Société à responsabilité limitée', 'Gesellschaft mit beschränkter Haftung', 'BV', 'SRL'],
  ['014', 'Naamloze vennootschap', 'Société anonyme', 'Aktiengesellschaft', 'NV', 'SA'],
  ['017', 'Vereniging zonder winstoogmerk', 'Association sans but lucratif', 'Vereinigung ohne Gewinnerzielungsabsicht', 'VZW', 'ASBL'],
  ['706', 'Coöperatieve vennootschap', 'Société coopérative', 'Genossenschaft', 'CV', 'SC'],
  ['416', 'Intercommunale vereniging', 'Intercommunale', 'Interkommunale', '', ''],
];

/** [make, model, type, fuel, engine cc, power kW, mass kg, co2 g/km, electric range km] */
export const CARS: readonly (readonly [string, string, string, string, number | null, number, number, number, number | null])[] = [
  ['VOLKSWAGEN', 'GOLF', 'CD', 'petrol', 1498, 110, 1380, 128, null],
  ['VOLKSWAGEN', 'GOLF', 'CD', 'diesel', 1968, 85, 1420, 112, null],
  ['VOLKSWAGEN', 'ID.3', 'E1', 'electric', null, 150, 1820, 0, 426],
  ['VOLKSWAGEN', 'POLO', 'AW', 'petrol', 999, 70, 1155, 121, null],
  ['BMW', '320D', '3L', 'diesel', 1995, 140, 1610, 118, null],
  ['BMW', 'X1', 'U1', 'petrol/electric', 1499, 120, 1870, 22, 89],
  ['BMW', 'I4 EDRIVE40', 'G26', 'electric', null, 250, 2125, 0, 590],
  ['RENAULT', 'CLIO', 'B', 'petrol', 999, 67, 1120, 118, null],
  ['RENAULT', 'MEGANE E-TECH', 'B9', 'electric', null, 160, 1710, 0, 450],
  ['PEUGEOT', '208', 'U', 'petrol', 1199, 74, 1165, 123, null],
  ['PEUGEOT', '3008', 'M', 'diesel', 1499, 96, 1505, 131, null],
  ['TOYOTA', 'YARIS', 'XP21', 'petrol/electric', 1490, 68, 1130, 92, null],
  ['TOYOTA', 'COROLLA', 'E21', 'petrol/electric', 1798, 90, 1385, 101, null],
  ['TESLA', 'MODEL 3', '003', 'electric', null, 208, 1765, 0, 513],
  ['TESLA', 'MODEL Y', '005', 'electric', null, 220, 1979, 0, 533],
  ['SKODA', 'OCTAVIA', 'NX', 'diesel', 1968, 110, 1465, 114, null],
  ['MERCEDES-BENZ', 'A 180', '177', 'petrol', 1332, 100, 1395, 133, null],
  ['VOLVO', 'XC40', 'X', 'petrol/electric', 1477, 130, 1800, 35, 45],
  ['KIA', 'NIRO', 'SG2', 'petrol/electric', 1580, 104, 1475, 103, null],
  ['CITROEN', 'C3', 'S', 'petrol', 1199, 61, 1090, 125, null],
];
