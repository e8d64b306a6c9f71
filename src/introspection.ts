/**
 * INTROSPECTION=0: `__schema` and `__type` refused at validation, with a
 * message that names the setting (Apollo's own refusal advises passing an
 * option to its constructor, which a gateway's user cannot). `__typename`
 * still answers, and a federation composer still reads `_service { sdl }`.
 * Used by /graphql and by the subscription transports alike.
 */
import { GraphQLError, getNamedType, isIntrospectionType, type ValidationRule } from 'graphql';

export const introspectionOffRule: ValidationRule = (context) => ({
  Field(node) {
    const type = getNamedType(context.getType());
    if (type && isIntrospectionType(type)) {
      context.reportError(
        new GraphQLError(
          `Introspection is turned off on this gateway (INTROSPECTION=0), so "${node.name.value}" cannot be queried. ` +
            'Ask its operators for the schema (schema/*.graphql in the sitegraph package), or for a gateway with introspection on.',
          { nodes: node, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', setting: 'INTROSPECTION' } },
        ),
      );
    }
  },
});
