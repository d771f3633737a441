// Every regular expression in src/ goes through recheck (a ReDoS checker) here, and any that it does not call
// `safe` fails the test with its file and line. New patterns are checked without any step of their author's: write
// them as a literal, or as `new RegExp(...)` built from string constants of the same file, and this test finds
// them. A flagged pattern is rewritten so that a string has one way to match (required separators instead of
// optional ones, no nested or adjacent quantifiers over the same characters), or replaced by plain string code;
// never silenced here. V8 has no backtrack limit: one super-linear pattern on a request's text stops every tenant.
//
// Test files are left out: their patterns only read our own output, never what a client or a seller sends.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { check, type Diagnostics } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SOURCE_ROOT = path.resolve(import.meta.dirname, '../..');
const REPOSITORY_ROOT = path.resolve(SOURCE_ROOT, '..');

/** Generous: the check of one pattern takes milliseconds to a few seconds on a busy machine. */
const CHECK_TIMEOUT_MS = 60_000;

type FoundPattern = { location: string; source: string; flags: string };
type Unreadable = { location: string; text: string };

function isCheckedFile(file: string): boolean {
  return (file.endsWith('.ts') || file.endsWith('.tsx')) && !/\.test\.tsx?$/.test(file);
}

/** The string constants of a file (`const NAME = '...'` at any depth), by name, for patterns built from them. */
function constantInitializers(sourceFile: ts.SourceFile): Map<string, ts.Expression> {
  const constants = new Map<string, ts.Expression>();
  const visit = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      ts.getCombinedNodeFlags(node) & ts.NodeFlags.Const
    ) {
      constants.set(node.name.text, node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return constants;
}

/** The string an expression always evaluates to, when it is built only from literals and constants. */
function evaluateString(node: ts.Expression, constants: Map<string, ts.Expression>, depth = 0): string | undefined {
  if (depth > 20) return undefined;
  const evaluate = (inner: ts.Expression) => evaluateString(inner, constants, depth + 1);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return evaluate(node.expression);
  if (ts.isIdentifier(node)) {
    const initializer = constants.get(node.text);
    return initializer ? evaluate(initializer) : undefined;
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = evaluate(node.left);
    const right = evaluate(node.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  if (ts.isTemplateExpression(node)) return evaluateTemplate(node, evaluate, (literal) => literal.text);
  if (ts.isTaggedTemplateExpression(node) && node.tag.getText() === 'String.raw') {
    const raw = (literal: ts.TemplateLiteralLikeNode) => literal.rawText ?? '';
    return ts.isNoSubstitutionTemplateLiteral(node.template)
      ? raw(node.template)
      : evaluateTemplate(node.template, evaluate, raw);
  }
  return undefined;
}

function evaluateTemplate(
  template: ts.TemplateExpression,
  evaluate: (node: ts.Expression) => string | undefined,
  text: (literal: ts.TemplateLiteralLikeNode) => string,
): string | undefined {
  let result = text(template.head);
  for (const span of template.templateSpans) {
    const value = evaluate(span.expression);
    if (value === undefined) return undefined;
    result += value + text(span.literal);
  }
  return result;
}

/** The regular expressions of one file: literals, and `RegExp(...)` calls whose arguments are constant. */
function findPatterns(fileName: string, text: string): { found: FoundPattern[]; unreadable: Unreadable[] } {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const constants = constantInitializers(sourceFile);
  const found: FoundPattern[] = [];
  const unreadable: Unreadable[] = [];
  const locate = (node: ts.Node) => `${fileName}:${sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isRegularExpressionLiteral(node)) {
      const literal = node.text;
      const end = literal.lastIndexOf('/');
      found.push({ location: locate(node), source: literal.slice(1, end), flags: literal.slice(end + 1) });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      const [sourceArgument, flagsArgument] = node.arguments ?? [];
      const source = sourceArgument && evaluateString(sourceArgument, constants);
      const flags = flagsArgument ? evaluateString(flagsArgument, constants) : '';
      if (source === undefined || flags === undefined)
        unreadable.push({ location: locate(node), text: node.getText() });
      else found.push({ location: locate(node), source, flags });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { found, unreadable };
}

function findPatternsInSources(): { found: FoundPattern[]; unreadable: Unreadable[] } {
  const files = readdirSync(SOURCE_ROOT, { recursive: true, encoding: 'utf8' }).filter(isCheckedFile).sort();
  const results = files.map((file) =>
    findPatterns(
      path.relative(REPOSITORY_ROOT, path.join(SOURCE_ROOT, file)),
      readFileSync(path.join(SOURCE_ROOT, file), 'utf8'),
    ),
  );
  return {
    found: results.flatMap((result) => result.found),
    unreadable: results.flatMap((result) => result.unreadable),
  };
}

/**
 * recheck's verdict. The automaton checker proves a bound; it cannot read look-around or back-references, and only
 * those patterns go to the fuzzer, whose verdict is a search rather than a proof.
 */
async function verdictOn(pattern: FoundPattern): Promise<Diagnostics> {
  const proven = await check(pattern.source, pattern.flags, { checker: 'automaton', timeout: CHECK_TIMEOUT_MS });
  if (proven.status !== 'unknown' || proven.error.kind !== 'unsupported') return proven;
  return check(pattern.source, pattern.flags, { checker: 'fuzz', timeout: CHECK_TIMEOUT_MS });
}

function describeProblem(diagnostics: Diagnostics): string {
  if (diagnostics.status === 'vulnerable') {
    return `${diagnostics.complexity.summary}, e.g. ${diagnostics.attack.pattern}`;
  }
  if (diagnostics.status === 'unknown') return `not decided (${diagnostics.error.kind})`;
  return 'safe';
}

describe('regular expressions in src/', () => {
  it('finds patterns written as literals and as RegExp built from constants', () => {
    const snippet = [
      "const WORD = '[a-z]+';",
      'const DIGIT = String.raw`\\d`;',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      "const pattern = new RegExp(`^${WORD}` + DIGIT + '$', 'i');",
      'const literal = /x*y/g;',
      'const built = new RegExp(input);',
    ].join('\n');
    expect(findPatterns('example.ts', snippet)).toEqual({
      found: [
        { location: 'example.ts:3', source: '^[a-z]+\\d$', flags: 'i' },
        { location: 'example.ts:4', source: 'x*y', flags: 'g' },
      ],
      unreadable: [{ location: 'example.ts:5', text: 'new RegExp(input)' }],
    });
  });

  it('holds none that recheck does not call safe', { timeout: 300_000 }, async () => {
    const { found, unreadable } = findPatternsInSources();
    expect(unreadable, 'RegExp built from something other than constants: recheck cannot see it').toEqual([]);
    expect(found.length).toBeGreaterThan(50);

    // Patterns are checked one after another: the checker is one process, and parallel checks only share its time.
    const problems: string[] = [];
    const verdicts = new Map<string, Diagnostics>();
    for (const pattern of found) {
      const key = `/${pattern.source}/${pattern.flags}`;
      const diagnostics = verdicts.get(key) ?? (await verdictOn(pattern));
      verdicts.set(key, diagnostics);
      if (diagnostics.status !== 'safe') {
        problems.push(`${pattern.location} ${key}: ${describeProblem(diagnostics)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
