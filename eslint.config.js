// The linter: typescript-eslint with type information, for what a type checker
// does not catch (promises left floating or handed where a callback is
// expected) and for the project's own rule against casts through `unknown` or
// `never` (a type error hidden rather than fixed). Formatting is Prettier's.
import tseslint from 'typescript-eslint';

const CAST_THROUGH_UNKNOWN = {
  selector: "TSAsExpression > TSAsExpression[typeAnnotation.type='TSUnknownKeyword']",
  message: 'A cast through `unknown` hides a type error: type the value, or narrow it with a guard.',
};
const CAST_TO_NEVER = {
  selector: "TSAsExpression[typeAnnotation.type='TSNeverKeyword']",
  message: 'A cast to `never` hides a type error: type the value, or narrow it with a guard.',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'src/generated/**',
      'coverage/**',
      '.wordpress-cache/**',
      'packages/*/node_modules/**',
      'examples/client/src/gql/**',
      'examples/wpgraphql-client/src/gql/**',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
    },
  },
  {
    // The shipped code, the sandbox and the tools; tests may cast their fakes.
    files: ['src/**/*.ts', 'packages/sandbox/src/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', CAST_THROUGH_UNKNOWN, CAST_TO_NEVER],
      // Prettier's width, held for comments too; a message's text is not broken for it.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
);
