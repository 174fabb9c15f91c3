/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A module that imports itself through others cannot be read, tested or moved on its own; type-only imports count too (docs/design.md section 10).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // swc reads the TypeScript source as written, `import type` included. (TypeScript 7,
    // the project's compiler, has no JavaScript API for dependency-cruiser's tsc parser.)
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
