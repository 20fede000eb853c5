import { delimiter, dirname, join } from 'node:path';
import { ROOT } from './paths.ts';

/** npm and the tools it starts use this Node (24), not an older one first on the PATH. */
export const NPM_ENV = {
  ...process.env,
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

/** A strict TypeScript project of the kind that imports the client: nodenext, library checks on. */
export const CONSUMER_TSCONFIG = {
  compilerOptions: {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
  },
  files: ['consumer.mts'],
};
