import { readFileSync } from 'node:fs';

/**
 * The Node.js options of `npm start` (`node <options> dist/server/main.js`), read from package.json, so that what
 * starts the built server elsewhere (the memory bench, the production tests) runs it as `npm start` does.
 */
export function npmStartOptions(packageJsonPath = 'package.json'): string[] {
  const { scripts } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'dist/server/main.js') {
    throw new Error(`npm start is not "node <options> dist/server/main.js": ${scripts.start}`);
  }
  return words.slice(1, -1);
}
