// ISO 3780 world manufacturer identifiers (VIN positions 1-3) of the makes Belgian
// partners meet most, with the make as the EEA catalogue spells it. Two-character entries
// cover every third character. Not exhaustive: an unknown WMI still decodes, without a
// manufacturer.

export interface Manufacturer {
  readonly name: string;
  /** The EEA `Mk` spelling(s), to find the catalogue's brand. */
  readonly makes: readonly string[];
}

const m = (name: string, ...makes: string[]): Manufacturer => ({
  name,
  makes: makes.length ? makes : [name.toUpperCase()],
});

export const WMI: Readonly<Record<string, Manufacturer>> = {
  WVW: m('Volkswagen', 'VOLKSWAGEN', 'VW'),
  WV1: m('Volkswagen Commercial Vehicles', 'VOLKSWAGEN'),
  WV2: m('Volkswagen Commercial Vehicles', 'VOLKSWAGEN'),
  WVG: m('Volkswagen', 'VOLKSWAGEN'),
  WAU: m('Audi', 'AUDI'),
  WUA: m('Audi Sport', 'AUDI'),
  TRU: m('Audi Hungary', 'AUDI'),
  WBA: m('BMW', 'BMW'),
  WBS: m('BMW M', 'BMW'),
  WBY: m('BMW i', 'BMW'),
  WMW: m('MINI', 'MINI'),
  WDD: m('Mercedes-Benz', 'MERCEDES-BENZ', 'MERCEDES BENZ'),
  WDB: m('Mercedes-Benz', 'MERCEDES-BENZ'),
  W1K: m('Mercedes-Benz', 'MERCEDES-BENZ'),
  W1N: m('Mercedes-Benz', 'MERCEDES-BENZ'),
  WME: m('smart', 'SMART'),
  WP0: m('Porsche', 'PORSCHE'),
  WP1: m('Porsche SUV', 'PORSCHE'),
  W0L: m('Opel', 'OPEL'),
  W0V: m('Opel', 'OPEL'),
  WF0: m('Ford Germany', 'FORD'),
  VF1: m('Renault', 'RENAULT'),
  VF3: m('Peugeot', 'PEUGEOT'),
  VF7: m('Citroën', 'CITROEN'),
  VR3: m('Peugeot', 'PEUGEOT'),
  VR7: m('Citroën', 'CITROEN'),
  VR1: m('DS Automobiles', 'DS'),
  UU1: m('Dacia', 'DACIA'),
  VSS: m('SEAT', 'SEAT'),
  VSK: m('Nissan Spain', 'NISSAN'),
  VWV: m('Volkswagen Spain', 'VOLKSWAGEN'),
  TMB: m('Škoda', 'SKODA'),
  TMA: m('Hyundai Czech', 'HYUNDAI'),
  U5Y: m('Kia Slovakia', 'KIA'),
  ZFA: m('Fiat', 'FIAT'),
  ZAR: m('Alfa Romeo', 'ALFA ROMEO'),
  ZFF: m('Ferrari', 'FERRARI'),
  ZHW: m('Lamborghini', 'LAMBORGHINI'),
  YV1: m('Volvo Cars', 'VOLVO'),
  YV4: m('Volvo Cars', 'VOLVO'),
  YS3: m('Saab', 'SAAB'),
  LVY: m('Volvo Cars China', 'VOLVO'),
  SAL: m('Land Rover', 'LAND ROVER'),
  SAJ: m('Jaguar', 'JAGUAR'),
  SCC: m('Lotus', 'LOTUS'),
  SJN: m('Nissan UK', 'NISSAN'),
  SB1: m('Toyota UK', 'TOYOTA'),
  JTD: m('Toyota', 'TOYOTA'),
  JTE: m('Toyota', 'TOYOTA'),
  JTN: m('Toyota', 'TOYOTA'),
  JT: m('Toyota', 'TOYOTA'),
  NMT: m('Toyota Turkey', 'TOYOTA'),
  JHM: m('Honda', 'HONDA'),
  JN1: m('Nissan', 'NISSAN'),
  JMZ: m('Mazda', 'MAZDA'),
  JS: m('Suzuki', 'SUZUKI'),
  JF: m('Subaru', 'SUBARU'),
  JMB: m('Mitsubishi', 'MITSUBISHI'),
  KNA: m('Kia', 'KIA'),
  KNE: m('Kia', 'KIA'),
  KMH: m('Hyundai', 'HYUNDAI'),
  '5YJ': m('Tesla', 'TESLA'),
  '7SA': m('Tesla', 'TESLA'),
  LRW: m('Tesla China', 'TESLA'),
  XP7: m('Tesla Germany', 'TESLA'),
  '1FA': m('Ford', 'FORD'),
  '1G1': m('Chevrolet', 'CHEVROLET'),
  '1HG': m('Honda USA', 'HONDA'),
  '1C4': m('Chrysler', 'JEEP', 'CHRYSLER'),
  '2T1': m('Toyota Canada', 'TOYOTA'),
  '3VW': m('Volkswagen Mexico', 'VOLKSWAGEN'),
  '4T1': m('Toyota USA', 'TOYOTA'),
  LSJ: m('MG (SAIC)', 'MG'),
  LB1: m('BYD', 'BYD'),
  LGX: m('BYD', 'BYD'),
  L6T: m('Geely', 'GEELY'),
  LPS: m('Polestar', 'POLESTAR'),
};

/** The manufacturer of a WMI: three characters first, then the two-character families. */
export function manufacturerOf(wmi: string): Manufacturer | undefined {
  return WMI[wmi] ?? WMI[wmi.slice(0, 2)];
}
