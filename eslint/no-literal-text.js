// A local lint rule: every text the console shows comes from the catalogue (apps/web/src/i18n, docs/decisions/
// 0088-console-languages.md). It reports words written straight into what renders:
//  - JSX text (`<h1>Farmers</h1>`) and string literals that are JSX children (`{busy ? 'Saving' : 'Save'}`);
//  - string literals given to the props and object keys that carry user-facing text (label, title, placeholder,
//    aria-label, okText, message, description, ...), as in Ant Design's column definitions and notifications.
// A "word" is two letters in a row; values without letters ('--', '·', '%', '/') pass. A file still being moved into
// the catalogue carries the comment `i18n: pending` and is skipped; `git grep "i18n: pending"` lists what is left.
const TEXT_KEYS = new Set([
  'label',
  'title',
  'placeholder',
  'aria-label',
  'ariaLabel',
  'alt',
  'okText',
  'cancelText',
  'message',
  'description',
  'tooltip',
  'emptyText',
  'extra',
  'addonBefore',
  'addonAfter',
  'help',
  'caption',
  'subtitle',
  'heading',
  'content',
  'text',
  'confirmText',
  'confirmLabel',
  'cancelLabel',
  'notFoundContent',
  'checkedChildren',
  'unCheckedChildren',
  'aria-description',
  'summary',
  'empty',
  'emptyMessage',
  'hint',
  'legend',
  'buttonText',
  'submitText',
  'successMessage',
  'errorMessage',
]);
const WORD = /\p{L}{2}/u;

function hasWord(node) {
  if (!node) return false;
  if (node.type === 'Literal') return typeof node.value === 'string' && WORD.test(node.value);
  if (node.type === 'TemplateLiteral') return node.quasis.some((q) => WORD.test(q.value.cooked ?? q.value.raw));
  if (node.type === 'ConditionalExpression') return hasWord(node.consequent) || hasWord(node.alternate);
  if (node.type === 'LogicalExpression') return hasWord(node.left) || hasWord(node.right);
  if (node.type === 'JSXExpressionContainer') return hasWord(node.expression);
  return false;
}

function keyName(key) {
  if (!key) return undefined;
  if (key.type === 'Identifier' || key.type === 'JSXIdentifier') return key.name;
  if (key.type === 'Literal') return String(key.value);
  if (key.type === 'JSXNamespacedName') return `${key.namespace.name}:${key.name.name}`;
  return undefined;
}

/** A key of Ant Design's `classNames={{ content: 'x' }}` names a CSS class, not a text. */
function inClassNames(node) {
  for (let n = node.parent; n; n = n.parent) {
    if (n.type === 'JSXAttribute') return keyName(n.name) === 'classNames';
    if (n.type === 'JSXElement') return false;
  }
  return false;
}

export const noLiteralText = {
  meta: {
    type: 'problem',
    docs: { description: 'Texts the console shows come from the catalogue (i18n), never literals.' },
    messages: { literal: 'Text "{{text}}" is not in the catalogue: add it to a *.messages.ts (with its French) and use t().' },
    schema: [],
  },
  create(context) {
    const source = context.sourceCode ?? context.getSourceCode();
    if (source.getAllComments().some((c) => c.value.includes('i18n: pending'))) return {};
    const report = (node) => context.report({ node, messageId: 'literal', data: { text: source.getText(node).replace(/\s+/g, ' ').slice(0, 60) } });
    return {
      JSXText(node) {
        if (WORD.test(node.value)) report(node);
      },
      JSXExpressionContainer(node) {
        if (node.parent?.type === 'JSXElement' || node.parent?.type === 'JSXFragment') {
          if (hasWord(node.expression)) report(node);
        }
      },
      JSXAttribute(node) {
        if (TEXT_KEYS.has(keyName(node.name) ?? '') && hasWord(node.value)) report(node);
      },
      Property(node) {
        if (!node.computed && TEXT_KEYS.has(keyName(node.key) ?? '') && hasWord(node.value) && !inClassNames(node)) report(node);
      },
    };
  },
};
