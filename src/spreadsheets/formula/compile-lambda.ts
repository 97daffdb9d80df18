// LET, LAMBDA and calls of LAMBDA values. Variables are resolved when the formula is compiled to a
// (frame depth, slot) pair; while the formula runs, each LET evaluation and each LAMBDA call pushes
// a frame onto ctx.frame, and a LAMBDA value keeps the frame it was made in (a closure).
import type { EvalContext } from "./context.ts";
import { compileNode, constant, type AstNode, type NodeCompiler, type Scope } from "./compile-node.ts";
import { compileName } from "./compile-refs.ts";
import { isBuiltInName } from "./env.ts";
import type { Thunk } from "./functions/spec.ts";
import { ERR, isError, isLambda, LambdaValue, OMITTED, type Frame, type Value } from "./values.ts";

/** LAMBDA calls within calls; past it a recursive LAMBDA gives #NUM! instead of exhausting the stack. */
export const MAX_LAMBDA_DEPTH = 1000;

function frameAt(ctx: EvalContext, depth: number): Frame | null {
  let frame = ctx.frame ?? null;
  for (let d = 0; d < depth && frame; d++) frame = frame.parent;
  return frame;
}

function lookup(name: string, c: NodeCompiler): [number, number] | null {
  const key = name.toLowerCase();
  let depth = 0;
  for (let scope = c.scope; scope; scope = scope.parent, depth++) {
    const slot = scope.names.get(key);
    if (slot !== undefined) return [depth, slot];
  }
  return null;
}

/** A LET or LAMBDA variable's value (an omitted argument reads as empty), or null when `name` is none in scope. */
export function variable(name: string, c: NodeCompiler): Thunk | null {
  const found = lookup(name, c);
  if (!found) return null;
  const [depth, slot] = found;
  return (ctx) => {
    const v = frameAt(ctx, depth)?.values[slot];
    return v === OMITTED || v === undefined ? null : (v as Value);
  };
}

function within<T>(c: NodeCompiler, scope: Scope, fn: () => T): T {
  const saved = c.scope;
  c.scope = scope;
  try {
    return fn();
  } finally {
    c.scope = saved;
  }
}

export function compileLet(node: AstNode, c: NodeCompiler): Thunk {
  const scope: Scope = { names: new Map(), parent: c.scope };
  const inits: Thunk[] = [];
  const body = within(c, scope, () => {
    (node.declarations ?? []).forEach((d, i) => {
      // Each value sees the names before it, not its own.
      inits.push(d.init ? compileNode(d.init, c) : constant(null));
      scope.names.set(d.id.name.toLowerCase(), i);
    });
    return node.body ? compileNode(node.body, c) : constant(ERR.VALUE);
  });
  return (ctx) => {
    const outer = ctx.frame ?? null;
    const frame: Frame = { values: new Array<unknown>(inits.length), parent: outer };
    ctx.frame = frame;
    try {
      for (let i = 0; i < inits.length; i++) frame.values[i] = (inits[i] as Thunk)(ctx);
      return body(ctx);
    } finally {
      ctx.frame = outer;
    }
  };
}

export function compileLambda(node: AstNode, c: NodeCompiler): Thunk {
  const params = node.params ?? [];
  const scope: Scope = { names: new Map(params.map((p, i) => [p.name.toLowerCase(), i])), parent: c.scope };
  const body = within(c, scope, () => (node.body ? compileNode(node.body, c) : constant(ERR.VALUE)));
  // A LAMBDA is a value only to what calls it; the rest of the engine sees it through isLambda.
  return (ctx) => new LambdaValue(params.length, body, ctx.frame ?? null) as unknown as Value;
}

/** Calls a LAMBDA value with its arguments (OMITTED for one left out); #VALUE! for anything else or a wrong count. */
export function invoke(fn: unknown, args: unknown[], ctx: EvalContext): Value {
  if (!isLambda(fn)) return isError(fn) ? fn : ERR.VALUE;
  if (args.length !== fn.params) return ERR.VALUE;
  const depth = ctx.depth ?? 0;
  if (depth >= MAX_LAMBDA_DEPTH) return ERR.NUM;
  ctx.step(1);
  const outer = ctx.frame ?? null;
  ctx.frame = { values: args, parent: fn.frame };
  ctx.depth = depth + 1;
  try {
    return fn.body(ctx);
  } catch (error) {
    // Recursion deeper than the thread's stack, before the depth bound: #NUM!, never an exception.
    if (depth === 0 && error instanceof RangeError && /call stack/i.test(error.message)) return ERR.NUM;
    throw error;
  } finally {
    ctx.frame = outer;
    ctx.depth = depth;
  }
}

/** `f(1,2)` where f is an expression giving a LAMBDA (a LAMBDA written in place, a variable, a name). */
export function lambdaCall(callee: Thunk, nodes: (AstNode | null)[], c: NodeCompiler): Thunk {
  const args = nodes.map((n) => (n === null ? constant(OMITTED as unknown as Value) : compileNode(n, c)));
  return (ctx) => {
    const fn = callee(ctx);
    if (!isLambda(fn)) return isError(fn) ? fn : ERR.VALUE;
    return invoke(
      fn,
      args.map((a) => a(ctx)),
      ctx,
    );
  };
}

/** A call of something that is not a function: a defined name holding a LAMBDA, or #NAME?. */
export function callValue(written: string, nodes: (AstNode | null)[], c: NodeCompiler): Thunk {
  c.names.add(written.toLowerCase());
  const def = isBuiltInName(written) ? null : c.env.name(written, c.sid);
  if (def) return lambdaCall(compileName(def, c), nodes, c);
  // Named as the formula shows it (a function Excel added later: without its _xlfn. prefix).
  c.unknown.push(c.fnName(written));
  return constant(ERR.NAME);
}

/** ISOMITTED(x): whether the LAMBDA argument x was left out. */
export function isOmittedCall(node: AstNode, c: NodeCompiler): Thunk {
  const arg = node.arguments?.[0];
  if (node.arguments?.length !== 1 || !arg) return constant(ERR.VALUE);
  const found = arg.type === "ReferenceIdentifier" && arg.kind === "name" ? lookup(String(arg.value), c) : null;
  if (!found) {
    compileNode(arg, c);
    return constant(false);
  }
  const [depth, slot] = found;
  return (ctx) => frameAt(ctx, depth)?.values[slot] === OMITTED;
}
