// A local lint rule: the console's looks come from the theme, its CSS classes and its building blocks
// (docs/decisions/0092-console-styles.md), never from a `style` prop written in a component. It reports a JSX `style`
// attribute whose value holds a constant: a literal ('100%', 16, '#fff'), a choice between literals
// (`phone ? 8 : 16`), an object or spread of literals, or a module-level constant holding one. Such a value belongs
// in a class (app/global.css, components/ui/ui.css or the feature's stylesheet) or in an Ant Design prop.
//
// What stays inline is a value that only exists at run time: `style={{ height }}` (a prop), `style={{ background:
// CATEGORY_COLORS[kind] }}` (a colour from data or from the map's palette), `style={{ left: x * scale }}`. Write only
// those values inline; the constant rest of the style goes into a class beside them.
//
// A style object the rule cannot read (a variable, a call: `style={styleOf(feature)}`) needs the comment
// `inline-style: runtime` on its line or the line above, saying why; `git grep "inline-style: runtime"` lists them.
const ESCAPE = 'inline-style: runtime';

export const noInlineStyle = {
  meta: {
    type: 'problem',
    docs: { description: 'No constant inline style in the console: use a CSS class, a building block or an Ant Design prop.' },
    messages: {
      constant:
        'Inline style "{{text}}" is a constant: use a class (app/global.css, components/ui/ui.css or the feature\'s stylesheet), a building block (components/ui/layout.tsx) or an Ant Design prop. Only values from run-time data stay inline.',
      opaque: 'Inline style "{{text}}" cannot be checked: write its run-time values as an object literal, or add the comment `' + ESCAPE + '` saying why.',
    },
    schema: [],
  },
  create(context) {
    const source = context.sourceCode ?? context.getSourceCode();
    const escapedLines = new Set();
    for (const c of source.getAllComments()) {
      if (c.value.includes(ESCAPE)) {
        escapedLines.add(c.loc.end.line);
        escapedLines.add(c.loc.end.line + 1);
      }
    }

    /** A `const X = <constant>` (in any scope): the identifier is as constant as its value. */
    function constantIdentifier(node) {
      if (node.name === 'undefined') return true;
      let scope = source.getScope(node);
      while (scope) {
        const variable = scope.set.get(node.name);
        if (variable) {
          const def = variable.defs[0];
          return Boolean(def?.type === 'Variable' && def.parent?.kind === 'const' && def.node.init && def.node.init !== node && isConstant(def.node.init));
        }
        scope = scope.upper;
      }
      return false;
    }

    function isConstant(node) {
      if (!node) return true;
      switch (node.type) {
        case 'Literal':
          return true;
        case 'TemplateLiteral':
          return node.expressions.every(isConstant);
        case 'UnaryExpression':
          return isConstant(node.argument);
        case 'BinaryExpression':
          return isConstant(node.left) && isConstant(node.right);
        case 'ConditionalExpression':
          // A choice between constants is a choice between classes.
          return isConstant(node.consequent) && isConstant(node.alternate);
        case 'LogicalExpression':
          return isConstant(node.left) && isConstant(node.right);
        case 'ObjectExpression':
          return node.properties.every((p) => (p.type === 'SpreadElement' ? isConstant(p.argument) : isConstant(p.value)));
        case 'ArrayExpression':
          return node.elements.every((e) => isConstant(e));
        case 'TSAsExpression':
        case 'TSSatisfiesExpression':
          return isConstant(node.expression);
        case 'Identifier':
          return constantIdentifier(node);
        default:
          return false;
      }
    }

    const text = (node) => source.getText(node).replace(/\s+/g, ' ').slice(0, 60);

    return {
      JSXAttribute(node) {
        if (node.name.type !== 'JSXIdentifier' || node.name.name !== 'style' || !node.value) return;
        if (escapedLines.has(node.loc.start.line)) return;
        const value = node.value.type === 'JSXExpressionContainer' ? node.value.expression : node.value;
        if (value.type === 'ObjectExpression') {
          for (const p of value.properties) {
            const v = p.type === 'SpreadElement' ? p.argument : p.value;
            if (isConstant(v)) context.report({ node: p, messageId: 'constant', data: { text: text(p) } });
          }
          return;
        }
        context.report({ node, messageId: isConstant(value) ? 'constant' : 'opaque', data: { text: text(node) } });
      },
    };
  },
};
