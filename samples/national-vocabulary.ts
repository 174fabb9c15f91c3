// The long tail a whole country has, for data at full Belgian scale (the benchmark): the
// hand-written lists of belgian-names.ts give a realistic sample of a few hundred rows,
// but stretched over six million addresses they would make every word a very frequent
// one (142 streets, 46,000 addresses each), and a search over such data costs what no
// real search costs. Here the shape follows the published data: 581 municipalities of
// Zipf-spread size with their sub-municipality postcodes, about 100,000 streets of some
// 65 addresses each under tens of thousands of distinct names, frequent words where
// Belgium has them ("Kerkstraat", "rue de la", "Sint-"), and enterprise names from a
// Zipf-spread surname list and invented brand names. Names are composed, not real, but
// their words and their frequencies look like the real ones. Deterministic for a seed.
import { MUNICIPALITIES } from './belgian-names.ts';

export interface Random {
  next(): number;
  int(n: number): number;
  pick<T>(list: readonly T[]): T;
}

/** Index i drawn with weight 1 / (i + 1)^s: a few very common, a long tail of rare ones. */
export function zipf(r: Random, n: number, s = 1): number {
  // Inverse of the continuous approximation of the Zipf CDF; exact enough for word counts.
  const u = r.next();
  if (s === 1) return Math.min(n - 1, Math.floor(Math.exp(u * Math.log(n + 1))) - 1);
  const a = 1 - s;
  return Math.min(n - 1, Math.max(0, Math.floor((u * ((n + 1) ** a - 1) + 1) ** (1 / a)) - 1));
}

type Region = 'BE-VLG' | 'BE-BRU' | 'BE-WAL';

export interface PostalArea {
  readonly zipcode: string;
  readonly postnameNl: string | null;
  readonly postnameFr: string | null;
}

export interface Commune {
  readonly nis: string;
  readonly region: Region;
  readonly german: boolean;
  readonly nl: string | null;
  readonly fr: string | null;
  readonly de: string | null;
  readonly areas: readonly PostalArea[];
  /** Share of the country's addresses. */
  readonly weight: number;
  readonly lat: number;
  readonly lon: number;
}

export interface Street {
  readonly id: string;
  readonly nl: string | null;
  readonly fr: string | null;
  readonly de: string | null;
  readonly area: PostalArea;
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

// Place names: Flemish and Walloon ones are built as the real ones are, stem and ending.
const NL_STEMS = ['Aal', 'As', 'Berg', 'Bever', 'Bier', 'Bo', 'Bree', 'Dender', 'Des', 'Dil', 'Ede', 'Ek', 'Er', 'Ever', 'Ga', 'Gel', 'Ha', 'Hamme',
  'Her', 'Heus', 'Hoog', 'Hou', 'Kal', 'Kapel', 'Kes', 'Kort', 'Laar', 'Lede', 'Lier', 'Lo', 'Lub', 'Meer', 'Mel', 'Mol', 'Neer', 'Nijl', 'Oost',
  'Op', 'Ou', 'Pel', 'Put', 'Ravel', 'Rum', 'Schil', 'Sle', 'Stek', 'Ter', 'Tiel', 'Tor', 'Veur', 'Vil', 'Wach', 'Wes', 'Wich', 'Wil', 'Wort', 'Zand',
  'Zel', 'Zoer', 'Zwijn', 'Brecht', 'Dam', 'Hal', 'Lint', 'Malle', 'Ranst', 'Beer', 'Wuust', 'Boort', 'Dessel', 'Geel', 'Mees', 'Hulst'];
const NL_ENDINGS = ['gem', 'hout', 'donk', 'beek', 'rode', 'zele', 'kerke', 'dijk', 'lo', 'veld', 'hoven', 'dorp', 'akker', 'straten', 'om', 'aarde',
  'sel', 'ingen', 'bergen', 'le', 'meer', 'brugge', 'hem', 'tegem', 'sele', 'lare'];
const FR_STEMS = ['Ans', 'Beau', 'Bel', 'Chapelle', 'Chaud', 'Fleur', 'Fontaine', 'Gem', 'Ham', 'Havel', 'Jem', 'Mar', 'Ner', 'Orp', 'Phil', 'Ram',
  'Sombre', 'Tin', 'Vil', 'Wav', 'Ber', 'Braine', 'Chas', 'Cou', 'Flo', 'Gedin', 'Hou', 'Juprel', 'Lessi', 'Mal', 'Neuf', 'Ohey', 'Perwe', 'Quié',
  'Rix', 'Seraing', 'Thui', 'Vaux', 'Vir', 'Wel', 'Yvoi', 'Aube', 'Bau', 'Cer', 'Dur', 'Esta', 'Froid', 'Gou', 'Herbe', 'Lin'];
const FR_ENDINGS = ['ville', 'court', 'mont', 'ies', 'ée', 'sart', 'ois', 'elle', 'bais', 'fontaine', 'champs', 'rieux', 'val', 'seille', 'lette', 'mes'];
const FR_PATTERNS = ['{}', '{}', '{}', '{}', 'Saint-{}', '{}-sur-Meuse', '{}-sur-Sambre', '{}-lez-{}', '{}-la-Neuve', 'Mont-{}', '{}-en-Hesbaye'];
const NL_PATTERNS = ['{}', '{}', '{}', '{}', 'Sint-{}', 'Oost{}', 'West{}', 'Groot-{}', '{}-Waas', 'Kapelle-op-den-{}'];
const DE_NAMES = ['Amel', 'Büllingen', 'Burg-Reuland', 'Bütgenbach', 'Kelmis', 'Lontzen', 'Raeren'];

// Street stems as [nl, fr phrase after "Rue", de]: the words Belgian streets are named after.
const CONCEPTS: readonly (readonly [string, string, string])[] = [
  ['Kerk', "de l'Église", 'Kirch'], ['Stations', 'de la Station', 'Bahnhof'], ['Dorps', 'du Village', 'Dorf'], ['Molen', 'du Moulin', 'Mühlen'],
  ['Nieuw', 'Neuve', 'Neu'], ['School', 'de l’École', 'Schul'], ['Kapel', 'de la Chapelle', 'Kapellen'], ['Veld', 'des Champs', 'Feld'],
  ['Linde', 'des Tilleuls', 'Linden'], ['Beuken', 'des Hêtres', 'Buchen'], ['Eiken', 'des Chênes', 'Eichen'], ['Berken', 'des Bouleaux', 'Birken'],
  ['Wilgen', 'des Saules', 'Weiden'], ['Populieren', 'des Peupliers', 'Pappel'], ['Kastanje', 'des Marronniers', 'Kastanien'], ['Rozen', 'des Roses', 'Rosen'],
  ['Bos', 'du Bois', 'Wald'], ['Heide', 'de la Bruyère', 'Heide'], ['Beek', 'du Ruisseau', 'Bach'], ['Brug', 'du Pont', 'Brücken'],
  ['Hof', 'de la Cour', 'Hof'], ['Markt', 'du Marché', 'Markt'], ['Kasteel', 'du Château', 'Schloss'], ['Abdij', "de l'Abbaye", 'Abtei'],
  ['Klooster', 'du Couvent', 'Kloster'], ['Vijver', "de l'Étang", 'Weiher'], ['Akker', 'des Cultures', 'Acker'], ['Weide', 'des Prés', 'Wiesen'],
  ['Hoog', 'Haute', 'Hoch'], ['Laag', 'Basse', 'Nieder'], ['Zand', 'du Sable', 'Sand'], ['Water', "de l'Eau", 'Wasser'], ['Berg', 'de la Montagne', 'Berg'],
  ['Zuid', 'du Midi', 'Süd'], ['Noord', 'du Nord', 'Nord'], ['Oost', "de l'Est", 'Ost'], ['West', "de l'Ouest", 'West'], ['Zon', 'du Soleil', 'Sonnen'],
  ['Koning', 'Royale', 'König'], ['Prins', 'du Prince', 'Prinzen'], ['Kruis', 'de la Croix', 'Kreuz'], ['Smis', 'de la Forge', 'Schmiede'],
  ['Brouwerij', 'de la Brasserie', 'Brauerei'], ['Vaart', 'du Canal', 'Kanal'], ['Dijk', 'de la Digue', 'Deich'], ['Meers', 'des Marais', 'Moor'],
  ['Tuin', 'des Jardins', 'Garten'], ['Boomgaard', 'du Verger', 'Obstgarten'], ['Hazel', 'des Noisetiers', 'Hasel'], ['Vlas', 'du Lin', 'Flachs'],
  ['Gasthuis', "de l'Hospice", 'Spital'], ['Pastorij', 'du Presbytère', 'Pfarr'], ['Leeuwerik', 'des Alouettes', 'Lerchen'], ['Merel', 'des Merles', 'Amsel'],
  ['Vink', 'des Pinsons', 'Finken'], ['Zwaluw', 'des Hirondelles', 'Schwalben'], ['Lelie', 'des Lys', 'Lilien'], ['Tulp', 'des Tulipes', 'Tulpen'],
  ['Esdoorn', 'des Érables', 'Ahorn'], ['Iepen', 'des Ormes', 'Ulmen'], ['Elzen', 'des Aulnes', 'Erlen'], ['Dennen', 'des Sapins', 'Tannen'],
  ['Spoorweg', 'du Chemin de Fer', 'Eisenbahn'], ['Fabriek', "de l'Usine", 'Fabrik'], ['Mijn', 'de la Mine', 'Gruben'], ['Steen', 'de la Pierre', 'Stein'],
];
const NL_KINDS: readonly (readonly [string, number])[] = [['straat', 50], ['laan', 12], ['weg', 10], ['plein', 3], ['dreef', 3], ['pad', 3],
  ['hoek', 2], ['kouter', 2], ['lei', 1], ['wegel', 2], ['veld', 2], ['hof', 2], ['berg', 2], ['dries', 1], ['kaai', 1], ['vest', 1], ['singel', 1]];
const FR_KINDS: readonly (readonly [string, number])[] = [['Rue', 60], ['Avenue', 10], ['Chemin', 8], ['Place', 3], ['Allée', 3], ['Clos', 3],
  ['Impasse', 3], ['Sentier', 3], ['Route', 3], ['Chaussée', 2], ['Boulevard', 1], ['Square', 1]];
const DE_KINDS: readonly (readonly [string, number])[] = [['straße', 60], ['weg', 25], ['gasse', 5], ['platz', 5], ['pfad', 5]];

const GIVEN = ['Jan', 'Pieter', 'Hendrik', 'Guido', 'Karel', 'Jozef', 'Frans', 'Emiel', 'Albert', 'Leopold', 'Astrid', 'Maria', 'Paul', 'Lieven',
  'Rik', 'Willem', 'Edward', 'Constant', 'Jacob', 'Louis', 'Victor', 'Émile', 'Jean', 'Pierre', 'Henri', 'Joseph', 'François', 'Marcel',
  'Georges', 'Camille', 'Adolphe', 'Léon', 'Charles', 'Jules', 'Auguste', 'Ferdinand', 'Julien', 'André', 'Lucien', 'Gustave', 'Désiré',
  'Florent', 'Hubert', 'Ernest', 'Alfred', 'Théodore', 'Gérard', 'Marguerite', 'Élisabeth', 'Anne'];
const SURNAME_ROOTS = ['Peeters', 'Janssens', 'Maes', 'Jacobs', 'Mertens', 'Willems', 'Claes', 'Goossens', 'Wouters', 'De Smet', 'Dubois',
  'Lambert', 'Dupont', 'Martin', 'Simon', 'Laurent', 'Lejeune', 'Renard', 'Vandenberghe', 'Van Damme', 'Schmitz', 'Lenaerts', 'Dumont',
  'Leclercq', 'De Backer', 'Hermans', 'Michiels', 'Desmet', 'Declercq', 'Smets', 'Verstraete', 'Aerts', 'Stevens', 'Pauwels', 'Cools',
  'Van de Velde', 'Hendrickx', 'Wuyts', 'Martens', 'Verhulst', 'Mathieu', 'Denis', 'Lemaire', 'Collard', 'François', 'Gilson', 'Thiry',
  'Mahieu', 'Noël', 'Piette', 'Servais', 'Wauters', 'Bogaert', 'Verbeke', 'Coppens', 'Geerts', 'Vermeulen', 'Segers', 'Huybrechts', 'Baert'];
// A surname tail as Belgium forms them: particles before a place or trade word, endings after.
const SURNAME_PARTICLES = ['Van ', 'Van den ', 'Van der ', 'Vande', 'Vander', 'De ', 'Ver', 'Le ', 'Du', 'De la '];
const SURNAME_WORDS = ['Broeck', 'Bossche', 'Heuvel', 'Straeten', 'Linden', 'Meulen', 'Eynde', 'Bergh', 'Poel', 'Hoeck', 'Kerckhove', 'Wilde',
  'Vos', 'Keyser', 'Cock', 'Wolf', 'Schepper', 'Meyer', 'Bruyne', 'Graeve', 'Haes', 'Clercq', 'Coster', 'Pauw', 'Roeck', 'Mulder', 'Bakker',
  'Hulst', 'Camp', 'Dycke', 'Elst', 'Hove', 'Laere', 'Maele', 'Nieuwen', 'Rompaey', 'Steen', 'Velde', 'Walle', 'Zande', 'Haute', 'Comte',
  'Moulin', 'Bois', 'Pont', 'Champ', 'Fosse', 'Mont', 'Rivière', 'Vallée', 'Croix', 'Fontaine'];

/** A surname: the frequent ones often, then tens of thousands of rarer ones. */
export function surname(r: Random): string {
  if (r.int(3) === 0) return SURNAME_ROOTS[zipf(r, SURNAME_ROOTS.length)]!;
  const word = SURNAME_WORDS[zipf(r, SURNAME_WORDS.length, 0.7)]!;
  const particle = SURNAME_PARTICLES[zipf(r, SURNAME_PARTICLES.length)]!;
  let ending = r.pick(['', '', '', 's', 'n', 'ens', 'e', 'x', 'ers', 'aert', 'ijns']);
  if (/[aeiou]$/.test(word) && /^[aeiou]/.test(ending)) ending = '';
  return `${particle}${particle.endsWith(' ') ? word : word.toLowerCase()}${ending}`;
}

export const person = (r: Random) => `${GIVEN[zipf(r, GIVEN.length, 0.8)]!} ${surname(r)}`;

const SYLLABLES = ['ve', 'ne', 'co', 'ac', 'er', 'tis', 'bra', 'bo', 'lu', 'mi', 'nor', 'ta', 'xa', 'ri', 'on', 'pro', 'fi', 'lex', 'qua',
  'do', 'va', 'ly', 'sen', 'tra', 'zo', 'mar', 'kel', 'ia', 'um', 'ex', 'ro', 'ga', 'dis', 'vi', 'tec', 'sol'];
/** An invented brand name ("Acertis", "Bralux"): most company names have a word no other has. */
export const brand = (r: Random) =>
  capital(Array.from({ length: 2 + r.int(2) }, () => r.pick(SYLLABLES)).join('') + r.pick(['', '', 'x', 's', 'o', 'a', 'is', 'ium']));

/** [nl, fr] words companies name themselves after, most common first. */
export const TRADE_WORDS: readonly (readonly [string, string])[] = [['Bouw', 'Construction'], ['Immo', 'Immo'], ['Consult', 'Consult'],
  ['Invest', 'Invest'], ['Garage', 'Garage'], ['Transport', 'Transports'], ['Bakkerij', 'Boulangerie'], ['Apotheek', 'Pharmacie'],
  ['Verzekeringen', 'Assurances'], ['Services', 'Services'], ['Management', 'Management'], ['Trading', 'Trading'], ['Group', 'Groupe'],
  ['Elektro', 'Électricité'], ['Schrijnwerkerij', 'Menuiserie'], ['Dakwerken', 'Toitures'], ['Tuinaanleg', 'Jardins'], ['Kapsalon', 'Coiffure'],
  ['Slagerij', 'Boucherie'], ['Brasserie', 'Brasserie'], ['Advocaten', 'Avocats'], ['Tandartspraktijk', 'Cabinet dentaire'], ['Logistics', 'Logistique'],
  ['Solutions', 'Solutions'], ['Holding', 'Holding'], ['Development', 'Développement'], ['Design', 'Design'], ['Medical', 'Médical'],
  ['Technics', 'Techniques'], ['Renovatie', 'Rénovation'], ['Schilderwerken', 'Peinture'], ['Loodgieterij', 'Plomberie'], ['Fietsen', 'Vélos'],
  ['Optiek', 'Optique'], ['Kinesitherapie', 'Kinésithérapie'], ['Boekhouding', 'Comptabilité'], ['Vastgoed', 'Immobilier'], ['Auto', 'Auto'],
  ['Food', 'Food'], ['Interieur', 'Intérieur']];

/** A company's name as the KBO holds them: a person's name and a trade, a brand, or a trade and a town. */
export function companyName(r: Random, french: boolean, town: string): string {
  const trade = TRADE_WORDS[zipf(r, TRADE_WORDS.length, 0.9)]![french ? 1 : 0];
  switch (r.int(6)) {
    case 0:
      return `${surname(r)} ${trade}`;
    case 1:
      return `${trade} ${surname(r)}`;
    case 2:
      return `${surname(r)} & ${surname(r)}`;
    case 3:
      return `${trade} ${town}`;
    default:
      return r.int(2) === 0 ? brand(r) : `${brand(r)} ${trade}`;
  }
}

function placeName(r: Random, stems: readonly string[], endings: readonly string[], patterns: readonly string[]): string {
  const name = () => `${r.pick(stems)}${r.pick(endings)}`;
  // "Oost" + "Bree" + "gem" is written "Oostbreegem".
  return r.pick(patterns).replace('{}', name()).replace('{}', name()).replace(/(Oost|West)([A-Z])/, (_, a, b) => a + b.toLowerCase());
}

/**
 * The country's municipalities: the real ones of belgian-names.ts first (the largest), then
 * composed ones up to 581 (300 Flemish, 262 Walloon of which 9 German-speaking, 19 Brussels),
 * each with one to four postcodes, sizes spread as Zipf.
 */
export function communes(r: Random): Commune[] {
  const list: Commune[] = [];
  const names = new Set<string>();
  const unique = (make: () => string) => {
    for (;;) {
      const name = make();
      if (!names.has(name)) {
        names.add(name);
        return name;
      }
    }
  };
  // Generated postcodes between the real ones' range ends, 1300 to about 8,400.
  let zip = 1300;
  const add = (region: Region, german: boolean, nl: string | null, fr: string | null, de: string | null, real?: { zipcode: string; lat: number; lon: number; nis: string }) => {
    const main = real?.zipcode ?? String((zip += 10 + r.int(6)));
    const areas: PostalArea[] = [{ zipcode: main, postnameNl: nl, postnameFr: fr ?? de }];
    // Merged municipalities keep their villages' postcodes and names.
    for (let extra = region === 'BE-BRU' ? 0 : zipf(r, 4, 0.5); extra > 0; extra--) {
      const village = region === 'BE-WAL' ? placeName(r, FR_STEMS, FR_ENDINGS, FR_PATTERNS) : placeName(r, NL_STEMS, NL_ENDINGS, NL_PATTERNS);
      areas.push({ zipcode: String(Number(main) + extra), postnameNl: region === 'BE-WAL' ? null : village, postnameFr: region === 'BE-WAL' ? village : null });
    }
    const rank = list.length;
    list.push({
      nis: real?.nis ?? String(10000 + rank * 97),
      region,
      german,
      nl,
      fr,
      de,
      areas,
      weight: 1 / (rank + 3) ** 0.75,
      lat: real?.lat ?? 49.6 + r.next() * 1.8,
      lon: real?.lon ?? 2.6 + r.next() * 3.6,
    });
  };
  for (const m of MUNICIPALITIES) {
    names.add(m.nl ?? m.fr ?? '');
    add(m.region, m.de !== null, m.nl, m.fr, m.de, m);
  }
  const counts = { flemish: 300 - 7, walloon: 262 - 7, brussels: 19 - 3, german: 9 - 2 };
  for (let i = 0; i < counts.brussels; i++) {
    const nl = unique(() => placeName(r, NL_STEMS, NL_ENDINGS, ['Sint-{}', '{}', 'Oud-{}']));
    add('BE-BRU', false, nl, `${nl.replace('Sint-', 'Saint-')}`, null);
  }
  for (let i = 0; i < counts.german; i++) add('BE-WAL', true, null, DE_NAMES[i]!, DE_NAMES[i]!);
  // Interleaved so sizes are spread over both regions.
  for (let i = 0; i < counts.flemish + counts.walloon; i++) {
    if (i % 2 === 0 && i / 2 < counts.flemish) add('BE-VLG', false, unique(() => placeName(r, NL_STEMS, NL_ENDINGS, NL_PATTERNS)), null, null);
    else add('BE-WAL', false, null, unique(() => placeName(r, FR_STEMS, FR_ENDINGS, FR_PATTERNS)), null);
  }
  return list;
}

const weighted = (r: Random, kinds: readonly (readonly [string, number])[]) => {
  let n = r.int(kinds.reduce((sum, [, weight]) => sum + weight, 0));
  for (const [kind, weight] of kinds) if ((n -= weight) < 0) return kind;
  return kinds[0]![0];
};

/** A street name in the commune's languages: a common concept, a person, or the road to a town. */
function streetName(r: Random, commune: Commune, towns: readonly Commune[]): [string | null, string | null, string | null] {
  const nlKind = weighted(r, NL_KINDS);
  const frKind = weighted(r, FR_KINDS);
  const deKind = weighted(r, DE_KINDS);
  const choice = r.int(10);
  let nl: string;
  let fr: string;
  let de: string;
  if (choice < 5) {
    const [cnl, cfr, cde] = CONCEPTS[zipf(r, CONCEPTS.length, 0.9)]!;
    nl = `${cnl}${nlKind}`;
    fr = `${frKind} ${cfr}`;
    de = `${cde}${deKind}`;
  } else if (choice < 9) {
    const who = person(r);
    nl = `${who}${nlKind}`;
    fr = `${frKind} ${who}`;
    de = `${who}-${capital(deKind)}`;
  } else {
    const town = r.pick(towns);
    const name = town.nl ?? town.fr ?? town.de!;
    nl = `${name}se${r.pick(['steenweg', 'baan', 'weg', 'straat'])}`;
    fr = `${r.pick(['Chaussée', 'Route', 'Rue'])} de ${town.fr ?? name}`;
    de = `${name}er Straße`;
  }
  if (commune.german) return [null, fr, de];
  if (commune.region === 'BE-VLG') return [nl, null, null];
  if (commune.region === 'BE-WAL') return [null, fr, null];
  return [nl, fr, null];
}

/**
 * The streets of one commune, about one per 65 of its addresses, each named once in it
 * (a commune has one Kerkstraat), each in one of its postal areas.
 */
export function streetsOf(r: Random, commune: Commune, addresses: number, towns: readonly Commune[]): Street[] {
  const wanted = Math.max(1, Math.round(addresses / 65));
  const seen = new Set<string>();
  const streets: Street[] = [];
  for (let attempt = 0; streets.length < wanted && attempt < wanted * 4; attempt++) {
    const [nl, fr, de] = streetName(r, commune, towns);
    const key = `${nl}|${fr}|${de}`;
    if (seen.has(key)) continue;
    seen.add(key);
    streets.push({
      id: `${commune.nis}${String(streets.length).padStart(5, '0')}`,
      nl,
      fr,
      de,
      area: commune.areas[zipf(r, commune.areas.length, 0.5)]!,
    });
  }
  return streets;
}

export interface BookStreet extends Street {
  readonly commune: Commune;
  /** How many addresses the street has. */
  readonly addresses: number;
}

export interface AddressBook {
  readonly streets: readonly BookStreet[];
  /** A street drawn in proportion to its addresses: where people and companies are. */
  street(r: Random): BookStreet;
}

/** Splits `total` over `weights` in whole numbers that add up to it exactly. */
function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  let cumulative = 0;
  let given = 0;
  return weights.map((weight) => {
    cumulative += weight;
    const upTo = Math.round((total * cumulative) / sum);
    const share = upTo - given;
    given = upTo;
    return share;
  });
}

/** The country's streets for `addresses` addresses, each with its length. */
export function addressBook(r: Random, addresses: number): AddressBook {
  const all = communes(r);
  const perCommune = apportion(
    addresses,
    all.map((c) => c.weight),
  );
  const streets: BookStreet[] = [];
  all.forEach((commune, index) => {
    const named = streetsOf(r, commune, perCommune[index]!, all);
    // Street lengths vary a lot: an exponential spread around the mean of 65.
    const lengths = apportion(
      perCommune[index]!,
      named.map(() => -Math.log(1 - r.next()) + 0.05),
    );
    named.forEach((street, i) => {
      if (lengths[i]! > 0) streets.push({ ...street, commune, addresses: lengths[i]! });
    });
  });
  const cumulative: number[] = [];
  let sum = 0;
  for (const street of streets) cumulative.push((sum += street.addresses));
  return {
    streets,
    street(r) {
      const target = r.next() * sum;
      let low = 0;
      let high = cumulative.length - 1;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (cumulative[mid]! > target) high = mid;
        else low = mid + 1;
      }
      return streets[low]!;
    },
  };
}
