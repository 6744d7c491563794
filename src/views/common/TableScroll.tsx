import type { ReactNode } from 'react';

/**
 * A wide table's own scrolling region: the table scrolls sideways inside its card instead of pushing the page
 * (a phone, a narrow window), reached by the keyboard and named for assistive technology by `label`.
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  readonly label: string;
  readonly className?: string;
  readonly children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways is reached by the keyboard.
    <section className={className ? `table-scroll ${className}` : 'table-scroll'} aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
