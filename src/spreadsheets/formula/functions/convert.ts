// CONVERT: units of Excel's list (names case-sensitive), each as its factor to the SI unit of its
// quantity; metric units take the decimal prefixes (k, M, m, u …), bit and byte the binary ones
// too (ki, Mi …). Temperatures are offsets, not factors. A unit not in the list, or two units of
// different quantities, is #N/A as in Excel. Factors are the exact definitions where there is one
// (1 in = 0.0254 m, 1 lbm = 0.45359237 kg, 1 cal = 4.1868 J).
import { toNumber, toText } from "../coerce.ts";
import { ERR, isError, type Scalar } from "../values.ts";
import type { FnTable } from "./spec.ts";

interface Unit {
  quantity: string;
  factor: number;
  metric: boolean;
}

const IN = 0.0254;
const PICA_POINT = IN / 72;
const LY = 9460730472580800;
const MI = 1609.344;
const NMI = 1852;

/** [quantity, names, factor, takes metric prefixes]. */
const UNITS: [string, string[], number, boolean][] = [
  ["mass", ["g"], 0.001, true],
  ["mass", ["sg"], 14.593902937206364, false],
  ["mass", ["lbm"], 0.45359237, false],
  ["mass", ["u"], 1.6605390666e-27, true],
  ["mass", ["ozm"], 0.028349523125, false],
  ["mass", ["grain"], 0.00006479891, false],
  ["mass", ["cwt", "shweight"], 45.359237, false],
  ["mass", ["uk_cwt", "lcwt", "hweight"], 50.80234544, false],
  ["mass", ["stone"], 6.35029318, false],
  ["mass", ["ton"], 907.18474, false],
  ["mass", ["uk_ton", "LTON", "brton"], 1016.0469088, false],
  ["length", ["m"], 1, true],
  ["length", ["mi"], MI, false],
  ["length", ["Nmi"], NMI, false],
  ["length", ["in"], IN, false],
  ["length", ["ft"], 0.3048, false],
  ["length", ["yd"], 0.9144, false],
  ["length", ["ang"], 1e-10, true],
  ["length", ["ell"], 1.143, false],
  ["length", ["ly"], LY, true],
  ["length", ["parsec", "pc"], 3.085677581491367e16, true],
  ["length", ["Picapt", "Pica"], PICA_POINT, false],
  ["length", ["pica"], IN / 6, false],
  ["length", ["survey_mi"], (5280 * 1200) / 3937, false],
  ["time", ["yr"], 31557600, false],
  ["time", ["day", "d"], 86400, false],
  ["time", ["hr"], 3600, false],
  ["time", ["mn", "min"], 60, false],
  ["time", ["sec", "s"], 1, true],
  ["pressure", ["Pa", "p"], 1, true],
  ["pressure", ["atm", "at"], 101325, true],
  ["pressure", ["mmHg"], 133.322387415, true],
  ["pressure", ["psi"], 6894.757293168361, false],
  ["pressure", ["Torr"], 101325 / 760, false],
  ["force", ["N"], 1, true],
  ["force", ["dyn", "dy"], 1e-5, true],
  ["force", ["lbf"], 4.4482216152605, false],
  ["force", ["pond"], 0.00980665, true],
  ["energy", ["J"], 1, true],
  ["energy", ["e"], 1e-7, true],
  ["energy", ["c"], 4.184, true],
  ["energy", ["cal"], 4.1868, true],
  ["energy", ["eV", "ev"], 1.602176634e-19, true],
  ["energy", ["HPh", "hh"], 2684519.537696173, false],
  ["energy", ["Wh", "wh"], 3600, true],
  ["energy", ["flb"], 0.3048 * 4.4482216152605, false],
  ["energy", ["BTU", "btu"], 1055.05585262, false],
  ["power", ["HP", "h"], 745.6998715822702, false],
  ["power", ["PS"], 735.49875, false],
  ["power", ["W", "w"], 1, true],
  ["magnetism", ["T"], 1, true],
  ["magnetism", ["ga"], 1e-4, true],
  ["volume", ["tsp"], 4.92892159375e-6, false],
  ["volume", ["tspm"], 5e-6, false],
  ["volume", ["tbs"], 1.478676478125e-5, false],
  ["volume", ["oz"], 2.95735295625e-5, false],
  ["volume", ["cup"], 2.365882365e-4, false],
  ["volume", ["pt", "us_pt"], 4.73176473e-4, false],
  ["volume", ["uk_pt"], 5.6826125e-4, false],
  ["volume", ["qt"], 9.46352946e-4, false],
  ["volume", ["uk_qt"], 1.1365225e-3, false],
  ["volume", ["gal"], 3.785411784e-3, false],
  ["volume", ["uk_gal"], 4.54609e-3, false],
  ["volume", ["l", "L", "lt"], 1e-3, true],
  ["volume", ["ang3", "ang^3"], 1e-30, true],
  ["volume", ["barrel"], 0.158987294928, false],
  ["volume", ["bushel"], 0.03523907016688, false],
  ["volume", ["ft3", "ft^3"], 0.3048 ** 3, false],
  ["volume", ["in3", "in^3"], IN ** 3, false],
  ["volume", ["ly3", "ly^3"], LY ** 3, true],
  ["volume", ["m3", "m^3"], 1, true],
  ["volume", ["mi3", "mi^3"], MI ** 3, false],
  ["volume", ["yd3", "yd^3"], 0.9144 ** 3, false],
  ["volume", ["Nmi3", "Nmi^3"], NMI ** 3, false],
  ["volume", ["Picapt3", "Picapt^3", "Pica3", "Pica^3"], PICA_POINT ** 3, false],
  ["volume", ["GRT", "regton"], 2.8316846592, false],
  ["volume", ["MTON"], 1.13267386368, false],
  ["area", ["uk_acre"], 4046.8564224, false],
  ["area", ["us_acre"], 4046.872609874252, false],
  ["area", ["ang2", "ang^2"], 1e-20, true],
  ["area", ["ar"], 100, true],
  ["area", ["ft2", "ft^2"], 0.3048 ** 2, false],
  ["area", ["ha"], 10000, false],
  ["area", ["in2", "in^2"], IN ** 2, false],
  ["area", ["ly2", "ly^2"], LY ** 2, true],
  ["area", ["m2", "m^2"], 1, true],
  ["area", ["Morgen"], 2500, false],
  ["area", ["mi2", "mi^2"], MI ** 2, false],
  ["area", ["Nmi2", "Nmi^2"], NMI ** 2, false],
  ["area", ["Picapt2", "Pica2", "Pica^2", "Picapt^2"], PICA_POINT ** 2, false],
  ["area", ["yd2", "yd^2"], 0.9144 ** 2, false],
  ["information", ["bit"], 1, true],
  ["information", ["byte"], 8, true],
  ["speed", ["admkn"], (6080 * 0.3048) / 3600, false],
  ["speed", ["kn"], NMI / 3600, false],
  ["speed", ["m/h", "m/hr"], 1 / 3600, true],
  ["speed", ["m/s", "m/sec"], 1, true],
  ["speed", ["mph"], MI / 3600, false],
];

const TABLE = new Map<string, Unit>();
for (const [quantity, names, factor, metric] of UNITS) for (const name of names) TABLE.set(name, { quantity, factor, metric });

const PREFIXES: Record<string, number> = {
  Y: 1e24, Z: 1e21, E: 1e18, P: 1e15, T: 1e12, G: 1e9, M: 1e6, k: 1e3, h: 1e2, da: 1e1, e: 1e1,
  d: 1e-1, c: 1e-2, m: 1e-3, u: 1e-6, n: 1e-9, p: 1e-12, f: 1e-15, a: 1e-18, z: 1e-21, y: 1e-24,
}; // prettier-ignore
const BINARY: Record<string, number> = {
  ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  Zi: 2 ** 70,
  Yi: 2 ** 80,
};

/** Temperature scales as (to kelvin, from kelvin). */
const TEMPERATURE: Record<string, [(x: number) => number, (k: number) => number]> = {
  C: [(x) => x + 273.15, (k) => k - 273.15],
  cel: [(x) => x + 273.15, (k) => k - 273.15],
  F: [(x) => ((x - 32) * 5) / 9 + 273.15, (k) => ((k - 273.15) * 9) / 5 + 32],
  fah: [(x) => ((x - 32) * 5) / 9 + 273.15, (k) => ((k - 273.15) * 9) / 5 + 32],
  K: [(x) => x, (k) => k],
  kel: [(x) => x, (k) => k],
  Rank: [(x) => (x * 5) / 9, (k) => (k * 9) / 5],
  Reau: [(x) => x * 1.25 + 273.15, (k) => (k - 273.15) * 0.8],
};

/** A unit name with its prefix resolved: its quantity and factor, or null. */
function unitOf(name: string): { quantity: string; factor: number } | null {
  const plain = TABLE.get(name);
  if (plain) return plain;
  for (const [prefixes, infoOnly] of [
    [BINARY, true],
    [PREFIXES, false],
  ] as const) {
    for (const [prefix, scale] of Object.entries(prefixes)) {
      if (!name.startsWith(prefix)) continue;
      const unit = TABLE.get(name.slice(prefix.length));
      if (!unit?.metric || (infoOnly && unit.quantity !== "information")) continue;
      const power = /\^?([23])$/.exec(name)?.[1];
      const exponent = power && (unit.quantity === "area" || unit.quantity === "volume") ? Number(power) : 1;
      return { quantity: unit.quantity, factor: unit.factor * scale ** exponent };
    }
  }
  return null;
}

function temperatureKelvin(name: string): [(x: number) => number, (k: number) => number] | null {
  const direct = TEMPERATURE[name];
  if (direct) return direct;
  // Kelvin alone takes prefixes ("mK").
  for (const [prefix, scale] of Object.entries(PREFIXES))
    if (name === `${prefix}K` || name === `${prefix}kel`) return [(x) => x * scale, (k) => k / scale];
  return null;
}

function convert(args: Scalar[]): Scalar {
  const n = toNumber(args[0] ?? null);
  if (isError(n)) return n;
  const from = toText(args[1] ?? null);
  if (isError(from)) return from;
  const to = toText(args[2] ?? null);
  if (isError(to)) return to;
  const tFrom = temperatureKelvin(from);
  const tTo = temperatureKelvin(to);
  if (tFrom || tTo) return tFrom && tTo ? Number(tTo[1](tFrom[0](n)).toPrecision(15)) : ERR.NA;
  const a = unitOf(from);
  const b = unitOf(to);
  if (!a || !b || a.quantity !== b.quantity) return ERR.NA;
  return Number(((n * a.factor) / b.factor).toPrecision(15));
}

export const CONVERT: FnTable = {
  CONVERT: { min: 3, max: 3, scalar: convert },
};
