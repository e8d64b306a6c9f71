/**
 * `npm run config-schema`: writes what is generated from the settings table (src/settings.ts) into files:
 * config.schema.json, the configuration file's JSON Schema (configJsonSchema, src/config.ts), and the table
 * of every setting in docs/configuration.md, between its markers (the page's other text is hand-written and
 * kept). `-- --check` (in `npm run build`): exit 1 when either file is not what it would write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { configJsonSchema } from '../src/config.ts';
import { readable, type Setting } from '../src/settings-kit.ts';
import { CONFIG_FILE_SETTING, SETTINGS } from '../src/settings.ts';

export const CONFIG_SCHEMA_FILE = fileURLToPath(new URL('../config.schema.json', import.meta.url));
export const CONFIG_DOC_FILE = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));

export const configSchemaText = (): string => `${JSON.stringify(configJsonSchema(), null, 2)}\n`;

/** The lines around the generated table in docs/configuration.md. */
export const DOC_BEGIN =
  '<!-- generated from src/settings.ts by npm run config-schema: edit the rows there, not this table -->';
export const DOC_END = '<!-- end of the generated table -->';

/** Plain text (a meaning, what unset means) made safe in a Markdown table cell. */
const plain = (text: string): string => text.replace(/[\\|<>*`[\]]/g, (c) => `\\${c}`);
const code = (text: string): string => `\`${text}\``;

/** `min`..`max` as prose: `0–65535`, `≥ 1`, `≤ 5`; undefined when unbounded. */
function range(min: number | undefined, max: number | undefined): string | undefined {
  if (min !== undefined && max !== undefined) return `${min}–${max}`;
  if (min !== undefined) return `≥ ${min}`;
  if (max !== undefined) return `≤ ${max}`;
  return undefined;
}

/** What a text check accepts, from its refusal's message (`must be user:application-password`). */
function accepted(s: Setting): string | undefined {
  const message = s.type === 'string' || s.type === 'list' ? s.check?.[1] : undefined;
  // A URL's check names the scheme; its example, after the parenthesis, is the meaning's business.
  return message && plain(message.replace(/^must be /, '').replace(/ \(.*$/, ''));
}

/** What a setting accepts, as the table's "values" cell: `0–65535`, `` `ip`, `credential` ``, `1–100 characters`. */
export function settingValues(s: Setting): string {
  switch (s.type) {
    case 'int':
      return range(s.min, s.max) ?? 'integer';
    case 'number':
      return `${range(s.min, s.max) ?? 'number'}, fractions too`;
    case 'bool':
      return '`1`/`0`';
    case 'enum':
      return s.values.map(code).join(', ');
    case 'list':
      if (s.values) return `comma-separated: ${s.values.map(code).join(', ')}`;
      return `comma-separated${accepted(s) ? `; each ${accepted(s)}` : ''}`;
    case 'string': {
      const length = s.min === 1 && s.max === undefined ? 'non-empty' : range(s.min, s.max)?.concat(' characters');
      const what = accepted(s) ?? (s.url ? 'URL' : undefined);
      return [length, what].filter(Boolean).join(', ') || 'text';
    }
  }
}

/** A row's default as the table shows it: as the environment takes it, then in its unit (`15000` (15 s)). */
function defaultCell(s: Setting): string {
  const v = s.default;
  if (v === undefined || (Array.isArray(v) && v.length === 0))
    return s.unset ? `*(unset: ${plain(s.unset)})*` : Array.isArray(v) ? '*(none)*' : '*(unset)*';
  const shown = typeof v === 'boolean' ? (v ? '1' : '0') : Array.isArray(v) ? v.join(',') : String(v);
  const unit = readable(s, v);
  return `${code(shown)}${unit ? ` (${unit})` : ''}${s.unset ? `; unset: ${plain(s.unset)}` : ''}`;
}

/** docs/configuration.md's table of every setting: variable (and flag), file key, default, values, meaning. */
export function settingsDocTable(rows: readonly Setting[] = SETTINGS): string {
  const cells = (c: readonly string[]) => {
    const bad = c.find((x) => /\n|(?<!\\)\|/.test(x));
    if (bad !== undefined) throw new Error(`settings: a table cell has a newline or an unescaped "|": ${bad}`);
    return `| ${c.join(' | ')} |`;
  };
  return [
    cells(['variable', 'file key', 'default', 'values', 'meaning']),
    '|---|---|---|---|---|',
    cells([
      `${code(CONFIG_FILE_SETTING.env)} (${code(`--${CONFIG_FILE_SETTING.flag}`)})`,
      '—',
      '*(unset)*',
      'file path',
      CONFIG_FILE_SETTING.doc,
    ]),
    ...rows.map((s) =>
      cells([
        `${code(s.env)}${s.flag ? ` (${code(`--${s.flag}`)})` : ''}`,
        code(s.path),
        defaultCell(s),
        settingValues(s),
        s.doc ?? plain(s.meaning),
      ]),
    ),
  ].join('\n');
}

/** docs/configuration.md with its generated table replaced by `table`; the markers must be there. */
export function configDocText(current: string, table: string = settingsDocTable()): string {
  const begin = current.indexOf(DOC_BEGIN);
  const end = current.indexOf(DOC_END);
  if (begin < 0 || end < begin)
    throw new Error(`docs/configuration.md has lost the markers of its generated table (${DOC_BEGIN} ... ${DOC_END})`);
  return `${current.slice(0, begin + DOC_BEGIN.length)}\n${table}\n${current.slice(end)}`;
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // missing: stale
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outputs = [
    { file: CONFIG_SCHEMA_FILE, name: 'config.schema.json', text: configSchemaText() },
    { file: CONFIG_DOC_FILE, name: 'docs/configuration.md', text: configDocText(read(CONFIG_DOC_FILE)) },
  ];
  const check = process.argv.includes('--check');
  for (const { file, name, text } of outputs) {
    if (read(file) === text) continue;
    if (check) {
      console.error(`${name} is stale: run npm run config-schema`);
      process.exitCode = 1;
    } else {
      writeFileSync(file, text);
      console.log(`wrote ${name}`);
    }
  }
}
