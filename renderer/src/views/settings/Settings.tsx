import { useContext } from 'react';
import { routeHref } from '../../hooks/useHashRoute.js';
import { ScopesContext } from '../../session.js';
import { OfficeSection } from './OfficeSection.js';
import { ApiKeysSection } from './ApiKeysSection.js';
import { ProcessingSection } from './ProcessingSection.js';
import { RolesSection } from './RolesSection.js';
import { UsersSection } from './UsersSection.js';
import { WatchedFoldersSection } from './WatchedFoldersSection.js';
import { WebhooksSection } from './WebhooksSection.js';

// Each section shows only to users whose scopes read it (GET /api/v1/me); its forms check the write scope.
const SECTIONS = [
  { id: 'users', label: 'Users', scope: 'users:read' },
  { id: 'roles', label: 'Roles', scope: 'roles:read' },
  { id: 'keys', label: 'API keys', scope: 'credentials:read' },
  { id: 'webhooks', label: 'Webhooks', scope: 'webhooks:read' },
  { id: 'folders', label: 'Watched folders', scope: 'documents:read' },
  { id: 'processing', label: 'Processing', scope: 'processing:read' },
  { id: 'office', label: 'Request clock & letters', scope: 'cases:read' },
] as const;

type SectionId = (typeof SECTIONS)[number]['id'];

export function Settings({ section }: { section: string | null }) {
  const scopes = useContext(ScopesContext);
  const visible = SECTIONS.filter((entry) => scopes.has(entry.scope));
  const current: SectionId | undefined = (visible.find((entry) => entry.id === section) ?? visible[0])?.id;
  return (
    <section className="page settings-page" aria-labelledby="settings-title">
      <div className="page-header">
        <h1 id="settings-title">Settings</h1>
      </div>
      <div className="settings">
        <nav className="settings-nav" aria-label="Settings sections">
          {visible.map((entry) => (
            <a key={entry.id} href={routeHref({ name: 'settings', section: entry.id })} aria-current={entry.id === current ? 'page' : undefined}>
              {entry.label}
            </a>
          ))}
        </nav>
        <div>
          {current === 'users' && <UsersSection />}
          {current === 'roles' && <RolesSection />}
          {current === 'keys' && <ApiKeysSection />}
          {current === 'webhooks' && <WebhooksSection />}
          {current === 'folders' && <WatchedFoldersSection />}
          {current === 'processing' && <ProcessingSection />}
          {current === 'office' && <OfficeSection />}
          {current === undefined && <p className="muted">Your role has no settings to show.</p>}
        </div>
      </div>
    </section>
  );
}
