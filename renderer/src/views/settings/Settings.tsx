import { routeHref } from '../../hooks/useHashRoute.js';
import { ApiKeysSection } from './ApiKeysSection.js';
import { ProcessingSection } from './ProcessingSection.js';
import { RolesSection } from './RolesSection.js';
import { UsersSection } from './UsersSection.js';
import { WatchedFoldersSection } from './WatchedFoldersSection.js';
import { WebhooksSection } from './WebhooksSection.js';

const SECTIONS = [
  { id: 'users', label: 'Users' },
  { id: 'roles', label: 'Roles' },
  { id: 'keys', label: 'API keys' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'folders', label: 'Watched folders' },
  { id: 'processing', label: 'Processing' },
] as const;

type SectionId = (typeof SECTIONS)[number]['id'];

export function Settings({ section }: { section: string | null }) {
  const current: SectionId = SECTIONS.find((entry) => entry.id === section)?.id ?? 'users';
  return (
    <section className="page settings-page" aria-labelledby="settings-title">
      <div className="page-header">
        <h1 id="settings-title">Settings</h1>
      </div>
      <div className="settings">
        <nav className="settings-nav" aria-label="Settings sections">
          {SECTIONS.map((entry) => (
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
        </div>
      </div>
    </section>
  );
}
