import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RouteOptions } from 'fastify';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { EVERY_ROUTE, impliedCodes } from '@server/lib/contract.js';

// Every error code a route can answer is one it declares (its `replies(ok, codes)`, and the codes
// its access, schemas and rate limit imply: lib/contract.ts), proven from the source before any
// request: from each route's handler, every function, method and constant it can reach through
// the server's and core's code is read, and each code written where the type ErrorCode is
// expected (thrown, returned, passed on) counts. tests/api/error-codes.test.ts checks the same
// at run time, on the answers actually sent. The reading over-approximates (a function reached is
// read whole, whichever branch the route takes), never under: a code it misses would have to
// come from outside src/ or from a string that is not typed ErrorCode.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULES = join(ROOT, 'src/server/modules');
const OURS = [join(ROOT, 'src/server'), join(ROOT, 'src/core')];
const VERBS = new Set(['get', 'post', 'put', 'patch', 'delete']);

const routesFiles = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
  const path = join(dir, entry.name);
  if (entry.isDirectory()) return routesFiles(path);
  return /(^|-)routes\.ts$/.test(entry.name) ? [path] : [];
});

function program() {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, {
    ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
  })!;
  const files = routesFiles(MODULES);
  return { files, program: ts.createProgram(files, { ...config.options, noEmit: true }) };
}

/** A property of an object literal, by name. */
function property(object: ts.Node | undefined, name: string): ts.Expression | undefined {
  if (!object || !ts.isObjectLiteralExpression(object)) return undefined;
  for (const p of object.properties) {
    if (ts.isPropertyAssignment(p) && p.name.getText() === name) return p.initializer;
    if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) return p.name;
  }
  return undefined;
}

interface Route { name: string; options: ts.ObjectLiteralExpression; handler: ts.Node }

/** A route left out of the API's contract (lib/contract.ts skips it too). */
const hidden = (options: ts.ObjectLiteralExpression) => property(property(options, 'schema'), 'hide')?.kind === ts.SyntaxKind.TrueKeyword;

/** The routes a routes file declares: `app.<verb>(path, options, handler)` and `app.route({ … })`. */
function routesOf(file: ts.SourceFile): Route[] {
  const found: Route[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.expression.getText() === 'app') {
      const verb = node.expression.name.text;
      const [first, second, third] = node.arguments;
      if (VERBS.has(verb) && first && ts.isStringLiteralLike(first) && second && ts.isObjectLiteralExpression(second) && third) {
        found.push({ name: `${verb.toUpperCase()} /api${first.text}`, options: second, handler: third });
      } else if (verb === 'route' && first && ts.isObjectLiteralExpression(first)) {
        const url = property(first, 'url');
        const handler = property(first, 'handler');
        if (url && ts.isStringLiteralLike(url) && handler) found.push({ name: `${property(first, 'method')?.getText()} /api${url.text}`, options: first, handler });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The codes a route's `replies(ok, codes)` names; null when its responses are not declared with replies(). */
function declaredCodes(checker: ts.TypeChecker, options: ts.ObjectLiteralExpression): string[] | null {
  const call = property(property(options, 'schema'), 'response');
  if (!call || !ts.isCallExpression(call) || call.expression.getText() !== 'replies') return null;
  /** The codes of a list written out, spread, or named by a constant. */
  const listed = (node: ts.Expression): string[] => {
    if (ts.isStringLiteralLike(node)) return [node.text];
    if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap(listed);
    if (ts.isSpreadElement(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) return listed(node.expression);
    if (ts.isIdentifier(node)) {
      const declaration = checker.getSymbolAtLocation(node)?.valueDeclaration;
      if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) return listed(declaration.initializer);
    }
    throw new Error(`replies()'s codes are not a list the test can read: ${node.getText()}`);
  };
  return call.arguments[1] ? listed(call.arguments[1]) : [];
}

/** What lib/contract.ts adds from a route's declaration, read from the same declaration in the source. */
function impliedByDeclaration(options: ts.ObjectLiteralExpression): string[] {
  const config = property(options, 'config');
  const schema = property(options, 'schema');
  const text = (node: ts.Expression | undefined) => (node && ts.isStringLiteralLike(node) ? node.text : undefined);
  const has = (object: ts.Node | undefined, name: string) => property(object, name) !== undefined || undefined;
  return impliedCodes({
    config: {
      access: text(property(config, 'access')), signInCode: text(property(config, 'signInCode')),
      beforeSecondFactor: property(config, 'beforeSecondFactor')?.kind === ts.SyntaxKind.TrueKeyword, rateLimit: has(config, 'rateLimit'),
    },
    schema: { body: has(schema, 'body'), querystring: has(schema, 'querystring'), headers: has(schema, 'headers'), params: has(schema, 'params') },
  } as unknown as RouteOptions);
}

/** A catch that answers every AppError itself (`if (error instanceof AppError) return …`): no code of its try leaves it. */
const catchesAppErrors = (statement: ts.TryStatement) => {
  const first = statement.catchClause?.block.statements[0];
  return first !== undefined && ts.isIfStatement(first) && /instanceof AppError\b/.test(first.expression.getText())
    && (ts.isReturnStatement(first.thenStatement) || (ts.isBlock(first.thenStatement) && first.thenStatement.statements.some(ts.isReturnStatement)));
};

/** Every code typed ErrorCode in the code a route's handler can reach, but those a catch answers. */
function reachableCodes(checker: ts.TypeChecker, errorCode: ts.Type, handler: ts.Node): Set<string> {
  let codes = new Set<string>();
  let seen = new Set<ts.Node>();
  /** The code inside a try whose catch answers AppErrors is read apart: what it reaches is caught there. */
  const caught = { codes: new Set<string>(), seen: new Set<ts.Node>() };
  const isErrorCode = (type: ts.Type | undefined) => {
    if (!type) return false;
    const types = type.isUnion() ? type.types : [type];
    return type === errorCode || checker.getNonNullableType(type) === errorCode || types.some((t) => t === errorCode);
  };
  const ours = (node: ts.Node) => {
    const file = node.getSourceFile().fileName;
    return !file.endsWith('.d.ts') && !file.includes('.test.') && OURS.some((dir) => file.startsWith(dir));
  };
  /** The code a reference leads to: a function's or method's body, a constant's value, a class's constructor. */
  const follow = (declaration: ts.Declaration) => {
    if (!ours(declaration)) return;
    if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration) || ts.isConstructorDeclaration(declaration)
      || ts.isGetAccessorDeclaration(declaration) || ts.isArrowFunction(declaration) || ts.isFunctionExpression(declaration)) {
      if (declaration.body) walk(declaration.body);
    } else if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
      walk(declaration.initializer);
    } else if (ts.isPropertyDeclaration(declaration) && declaration.initializer) {
      walk(declaration.initializer);
    } else if (ts.isClassDeclaration(declaration)) {
      for (const member of declaration.members) if (ts.isConstructorDeclaration(member)) follow(member);
    }
  };
  /**
   * A call given a literal for the parameter its callee switches on (`moneyActionError(state,
   * 'refund')`): its arguments, and of the callee's body the one case that literal takes.
   */
  const oneCase = (call: ts.CallExpression): boolean => {
    let symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const callee = symbol?.valueDeclaration;
    if (!callee || !ts.isFunctionDeclaration(callee) || !callee.body || !ours(callee)) return false;
    const statements = callee.body.statements;
    const choice = statements.length === 1 && ts.isSwitchStatement(statements[0]!) ? statements[0] : undefined;
    if (!choice || !ts.isIdentifier(choice.expression)) return false;
    const index = callee.parameters.findIndex((p) => p.name.getText() === (choice.expression as ts.Identifier).text);
    const given = call.arguments[index];
    if (index < 0 || !given || !ts.isStringLiteralLike(given)) return false;
    const clause = choice.caseBlock.clauses.find((c) => ts.isCaseClause(c) && ts.isStringLiteralLike(c.expression) && c.expression.text === given.text);
    if (!clause) return false;
    call.arguments.forEach(walk);
    clause.statements.forEach(walk);
    return true;
  };
  const walk = (node: ts.Node) => {
    if (seen.has(node)) return;
    seen.add(node);
    if (ts.isCallExpression(node) && oneCase(node)) return;
    if (ts.isTryStatement(node) && catchesAppErrors(node) && codes !== caught.codes) {
      const outside = { codes, seen };
      ({ codes, seen } = caught);
      walk(node.tryBlock);
      ({ codes, seen } = outside);
      node.catchClause!.block.statements.forEach(walk);
      if (node.finallyBlock) walk(node.finallyBlock);
      return;
    }
    if (ts.isStringLiteralLike(node)) {
      if (isErrorCode(checker.getContextualType(node))) codes.add(node.text);
      return;
    }
    if (ts.isIdentifier(node)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      for (const declaration of symbol?.declarations ?? []) follow(declaration);
      return;
    }
    ts.forEachChild(node, walk);
  };
  walk(handler);
  return codes;
}

/** Codes the reading reaches but the route cannot answer, each with the reason the source cannot show. */
const NOT_ANSWERED: Record<string, string[]> = {
  // The sender's cancel and staff's moves share changeStatus (transfers/change-status.ts): its
  // four-eyes, hold, completion, rejection and PayPal capture branches are taken as staff, or
  // towards completed, rejected or processing, never by the sender's move to cancelled.
  'POST /api/transfer-requests/:id/cancel': [
    'complete_needs_both', 'complete_needs_payment', 'complete_needs_payout', 'compliance_hold', 'paypal_capture_refused',
    'paypal_capture_unavailable', 'processing_needs_approval', 'reject_after_payout',
  ],
  // transfers/rail-payout.ts's lockForRailPayout reads moneyActionError's refusal as the reason a
  // transfer waits (it is left out of the file), and never throws it.
  'POST /api/bank/files': ['payout_already_sent', 'payout_needs_payment', 'transfer_closed'],
  // recordRailPayout asks moneyActionError(…, 'complete') only whether the transfer completes;
  // the payout attempt a statement line settles names its transfer by foreign key, so the money
  // step always finds it. A credit's transfer that recordPayment would refuse (lockForPayments) has
  // the refusal written in its line's note, listed unmatched and flagged, never thrown.
  'POST /api/bank/statements': [
    'complete_needs_both', 'complete_needs_payment', 'complete_needs_payout', 'not_found',
    'payment_already_recorded', 'payment_through_pay_pal', 'transfer_closed',
  ],
};

/** Each route's name, where it is declared, the codes it declares, and the codes its handler can reach. */
function routeCodes() {
  const { files, program: source } = program();
  const checker = source.getTypeChecker();
  const errors = source.getSourceFile(join(ROOT, 'src/core/errors.ts'))!;
  const errorCodeSymbol = checker.getExportsOfModule(checker.getSymbolAtLocation(errors)!).find((s) => s.name === 'ErrorCode')!;
  const errorCode = checker.getDeclaredTypeOfSymbol(errorCodeSymbol);
  return files.flatMap((path) => routesOf(source.getSourceFile(path)!).filter((route) => !hidden(route.options)).map((route) => {
    const own = declaredCodes(checker, route.options);
    return {
      name: route.name,
      file: relative(ROOT, path),
      withReplies: own !== null,
      declared: new Set<string>([...EVERY_ROUTE, ...(own ?? []), ...impliedByDeclaration(route.options)]),
      reachable: reachableCodes(checker, errorCode, route.handler),
    };
  }));
}

describe('the error codes each route can answer', () => {
  const routes = routeCodes();

  it('are found in the functions a handler calls, across files and modules', () => {
    expect(routes.length).toBeGreaterThan(100);
    const verify = routes.find((r) => r.name === 'POST /api/auth/mfa/verify')!;
    expect([...verify.reachable]).toEqual(expect.arrayContaining(['mfa_token_invalid', 'mfa_token_exhausted', 'mfa_code_invalid', 'rate_limited']));
    const setUp = routes.find((r) => r.name === 'POST /api/auth/mfa/setup')!;
    expect([...setUp.reachable]).toEqual(expect.arrayContaining(['current_password_wrong', 'reauth_code_sent', 'reauth_otp_invalid']));
    expect([...setUp.declared]).toEqual(expect.arrayContaining(['unauthenticated', 'validation_failed', 'mfa_already_on']));
  });

  it('are all declared by the route', () => {
    const undeclared = routes.flatMap(({ name, file, withReplies, declared, reachable }) => {
      if (!withReplies) return [`${name} (${file}): its responses are not declared with replies()`];
      const missing = [...reachable].filter((code) => !declared.has(code) && !NOT_ANSWERED[name]?.includes(code)).sort();
      return missing.length > 0 ? [`${name} (${file}): ${missing.join(', ')}`] : [];
    });
    expect(undeclared).toEqual([]);
  });

  it('list as not answered only codes the reading still reaches and the route does not declare', () => {
    for (const [name, codes] of Object.entries(NOT_ANSWERED)) {
      const route = routes.find((r) => r.name === name);
      expect(route, name).toBeDefined();
      for (const code of codes) expect(route!.reachable.has(code) && !route!.declared.has(code), `${name}: ${code}`).toBe(true);
    }
  });
}, 300_000);
