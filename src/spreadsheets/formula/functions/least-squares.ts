// Multiple linear regression for LINEST, LOGEST, TREND and GROWTH: least squares by modified
// Gram–Schmidt, where a column that is a combination of the ones before it is dropped (its
// coefficient and standard error 0), as Excel does with collinear predictors.

export interface Fit {
  /** One coefficient per predictor, in the predictors' order (0 for a dropped one). */
  coef: number[];
  intercept: number;
  se: number[];
  /** Standard error of the intercept; null when the fit has no constant. */
  seIntercept: number | null;
  r2: number;
  sey: number;
  f: number;
  df: number;
  ssreg: number;
  ssresid: number;
}

/** Fits y ≈ b + Σ m_j x_j (b = 0 without `constant`); null when nothing can be fitted. */
export function leastSquares(xs: number[][], y: number[], constant: boolean): Fit | null {
  const n = y.length;
  const k = xs[0]?.length ?? 0;
  const columns: number[][] = [];
  if (constant) columns.push(new Array<number>(n).fill(1));
  for (let j = 0; j < k; j++) columns.push(xs.map((row) => row[j] as number));
  // Q's kept columns, R's rows (over every original column), and which originals were kept.
  const q: number[][] = [];
  const r: number[][] = [];
  const kept: number[] = [];
  columns.forEach((column, index) => {
    const v = column.slice();
    const norm0 = Math.sqrt(dot(v, v));
    const rRow = new Array<number>(columns.length).fill(0);
    q.forEach((qi, i) => {
      const d = dot(qi, v);
      for (let t = 0; t < n; t++) v[t] = (v[t] as number) - d * (qi[t] as number);
      (r[i] as number[])[index] = d;
    });
    const norm = Math.sqrt(dot(v, v));
    if (norm0 === 0 || norm <= norm0 * 1e-12) return;
    rRow[index] = norm;
    q.push(v.map((x) => x / norm));
    r.push(rRow);
    kept.push(index);
  });
  if (kept.length === 0 && !constant && k === 0) return null;
  const p = kept.length;
  // Solve R (restricted to kept columns) · β = Qᵀ y by back substitution; R⁻¹ for the standard errors.
  const qty = q.map((qi) => dot(qi, y));
  const rAt = (i: number, j: number): number => (r[i] as number[])[kept[j] as number] as number;
  const beta = new Array<number>(p).fill(0);
  for (let i = p - 1; i >= 0; i--) {
    let s = qty[i] as number;
    for (let j = i + 1; j < p; j++) s -= rAt(i, j) * (beta[j] as number);
    beta[i] = s / rAt(i, i);
  }
  const rinv = inverseUpper(p, rAt);
  const full = new Array<number>(columns.length).fill(0);
  const variance = new Array<number>(columns.length).fill(0);
  kept.forEach((index, i) => {
    full[index] = beta[i] as number;
    let s = 0;
    for (let j = i; j < p; j++) s += (rinv[i]?.[j] ?? 0) ** 2;
    variance[index] = s;
  });
  let ssresid = 0;
  let mean = 0;
  for (const v of y) mean += v / n;
  let sstot = 0;
  for (let t = 0; t < n; t++) {
    let yhat = 0;
    for (let c = 0; c < columns.length; c++) yhat += (full[c] as number) * ((columns[c] as number[])[t] as number);
    ssresid += ((y[t] as number) - yhat) ** 2;
    sstot += constant ? ((y[t] as number) - mean) ** 2 : (y[t] as number) ** 2;
  }
  const df = n - p;
  const ssreg = sstot - ssresid;
  const sigma2 = df > 0 ? ssresid / df : NaN;
  const offset = constant ? 1 : 0;
  const predictors = p - offset;
  return {
    coef: full.slice(offset),
    intercept: constant ? (full[0] as number) : 0,
    se: variance.slice(offset).map((v) => Math.sqrt(v * sigma2)),
    seIntercept: constant ? Math.sqrt((variance[0] as number) * sigma2) : null,
    r2: sstot === 0 ? NaN : ssreg / sstot,
    sey: Math.sqrt(sigma2),
    f: predictors > 0 && df > 0 ? ssreg / predictors / (ssresid / df) : NaN,
    df,
    ssreg,
    ssresid,
  };
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

/** The inverse of an upper-triangular p×p matrix given by `at`. */
function inverseUpper(p: number, at: (i: number, j: number) => number): number[][] {
  const inv: number[][] = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let i = p - 1; i >= 0; i--) {
    (inv[i] as number[])[i] = 1 / at(i, i);
    for (let j = i + 1; j < p; j++) {
      let s = 0;
      for (let t = i + 1; t <= j; t++) s += at(i, t) * ((inv[t] as number[])[j] as number);
      (inv[i] as number[])[j] = -s / at(i, i);
    }
  }
  return inv;
}
