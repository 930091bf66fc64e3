import type { ReactNode } from 'react';

// The viewer toolbar's compact buttons show these 16 px line drawings; each button carries its name as its
// accessible name and its name and shortcut as a tooltip (ViewerToolbar.tsx), so the toolbar stays one row.

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="toolbar-icon" width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export const ICONS = {
  select: (
    <Icon>
      <path d="M3.5 2.5v10l2.8-2.6 1.9 4.1 1.8-.8-1.9-4h3.9z" fill="currentColor" stroke="none" />
    </Icon>
  ),
  rectangle: (
    <Icon>
      <rect x="2.5" y="4" width="11" height="8" rx="0.5" />
    </Icon>
  ),
  words: (
    <Icon>
      <path d="M2.5 4.5h11M2.5 8h11M2.5 11.5h6" />
      <rect x="1.5" y="6.3" width="8" height="3.4" fill="currentColor" stroke="none" opacity="0.45" />
    </Icon>
  ),
  polygon: (
    <Icon>
      <path d="M8 2.5l5.5 4-2 6.5h-7l-2-6.5z" />
    </Icon>
  ),
  freehand: (
    <Icon>
      <path d="M2 11c1.5-4 3-6 4-5s-1 5 1 5 2.5-6 4-6 1.5 3 3 3" />
    </Icon>
  ),
  full_page: (
    <Icon>
      <path d="M3.5 1.5h6l3 3v10h-9z" />
      <rect x="5" y="6" width="6" height="6.5" fill="currentColor" stroke="none" />
    </Icon>
  ),
  remove: (
    <Icon>
      <path d="M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4M6.7 6.5v5M9.3 6.5v5" />
    </Icon>
  ),
  undo: (
    <Icon>
      <path d="M5.5 3L2.5 6l3 3" />
      <path d="M2.5 6h7a4 4 0 010 8H7" />
    </Icon>
  ),
  continuous: (
    <Icon>
      <rect x="3.5" y="1" width="9" height="6" rx="0.5" />
      <rect x="3.5" y="9" width="9" height="6" rx="0.5" />
    </Icon>
  ),
  hidden: (
    <Icon>
      <path d="M1.5 8s2.4-4.5 6.5-4.5S14.5 8 14.5 8 12.1 12.5 8 12.5 1.5 8 1.5 8z" />
      <circle cx="8" cy="8" r="1.8" />
      <path d="M2.5 13.5l11-11" />
    </Icon>
  ),
} as const;
