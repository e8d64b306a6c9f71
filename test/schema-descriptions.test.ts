/**
 * Every type, field, argument, input field and enum value of the schema has a
 * description (issue 12): GraphiQL's docs pane is the front end's reference,
 * so an undescribed element is a bug. The walker itself is checked on a small
 * SDL first, so a green run means "all described", not "nothing walked".
 */
import {
  buildSchema as buildSdl,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../src/schema.ts';

/** A description of only whitespace documents nothing, so it counts as missing. */
const described = (d: string | null | undefined) => typeof d === 'string' && d.trim() !== '';

/** Paths (`Type`, `Type.field`, `Type.field(arg)`, `Enum.VALUE`) of every element without a description. */
function undescribed(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    // Introspection types and the built-in scalars are graphql-js's, documented by the spec.
    if (isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
    if (!described(type.description)) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!described(field.description)) missing.push(`${type.name}.${field.name}`);
        for (const arg of field.args) {
          if (!described(arg.description)) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!described(field.description)) missing.push(`${type.name}.${field.name}`);
      }
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) {
        if (!described(value.description)) missing.push(`${type.name}.${value.name}`);
      }
    }
  }
  return missing.sort();
}

describe('schema descriptions', () => {
  it('the walker finds each kind of undescribed element, and nothing else', () => {
    const sdl = `
      "d" scalar Described
      scalar Bare
      "d" interface I { "d" a: Int b(x: Int): Int }
      type T implements I { "d" a: Int "d" b("d" x: Int): Int }
      "d" input In { "d" ok: Int missing: Int }
      "d" enum E { "d" A B }
      "   " union U = T
      "d" type Query { "d" t("d" in: In, e: E): T u: U "d" c: Described d: Bare }
    `;
    expect(undescribed(buildSdl(sdl))).toEqual(
      ['Bare', 'E.B', 'I.b', 'I.b(x)', 'In.missing', 'Query.d', 'Query.t(e)', 'Query.u', 'T', 'U'].sort(),
    );
  });

  it('every type, field, argument, input field and enum value of the schema is described', () => {
    const schema = buildSchema();
    // Guard against walking an empty or truncated schema.
    expect(Object.keys(schema.getTypeMap()).length).toBeGreaterThan(100);
    const missing = undescribed(schema);
    // The list itself is the failure message: which elements still need a description.
    expect(missing, `${missing.length} undescribed:\n${missing.join('\n')}`).toEqual([]);
  });
});
