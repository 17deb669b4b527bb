// The console's styled building blocks, in place of inline styles (docs/decisions/0092-console-styles.md): each renders one
// element with the classes of app/global.css, so a block costs no more than the <div style={…}> it replaces.
//  - Stack: a column with a gap between its children;
//  - Inline: a row (centred vertically unless told) with a gap, wrapping on request;
//  - Muted: secondary text in the theme's description colour (WCAG AA on white), optionally small;
//  - Figure: a big number (a dashboard total), or a medium one.
import type { HTMLAttributes, ReactNode } from 'react';

export type Gap = 0 | 4 | 6 | 8 | 12 | 16 | 24 | 32;
type Tag = 'div' | 'span' | 'ul' | 'aside' | 'section' | 'li' | 'p';

type BlockProps = Omit<HTMLAttributes<HTMLElement>, 'style'> & { as?: Tag; children?: ReactNode };

function join(...names: (string | false | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}

function Block({ as: Element = 'div', ...rest }: BlockProps) {
  return <Element {...rest} />;
}

export function Stack({ gap = 16, className, ...rest }: BlockProps & { gap?: Gap }) {
  return <Block {...rest} className={join('stack', gap !== 0 && `gap-${gap}`, className)} />;
}

export function Inline({
  gap = 8,
  wrap = false,
  align = 'center',
  justify,
  className,
  ...rest
}: BlockProps & { gap?: Gap; wrap?: boolean; align?: 'center' | 'baseline' | 'start' | 'stretch'; justify?: 'between' | 'end' }) {
  return (
    <Block
      {...rest}
      className={join('inline', gap !== 0 && `gap-${gap}`, wrap && 'wrap', align !== 'center' && `align-${align}`, justify && `justify-${justify}`, className)}
    />
  );
}

export function Muted({ small = false, className, as = 'span', ...rest }: BlockProps & { small?: boolean }) {
  return <Block {...rest} as={as} className={join('text-muted', small && 'small', className)} />;
}

export function Figure({ size = 'lg', className, as = 'div', ...rest }: BlockProps & { size?: 'lg' | 'md' }) {
  return <Block {...rest} as={as} className={join(size === 'lg' ? 'figure' : 'figure-md', className)} />;
}
