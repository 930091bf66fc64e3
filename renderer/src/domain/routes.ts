// The renderer's hash routes (#/cases/12), pure so the desktop menu's routes can be checked against them.

export type Route =
  | { name: 'queue' }
  | { name: 'case'; caseId: string }
  | { name: 'release'; caseId: string }
  | { name: 'document'; documentId: string; caseId: string | null }
  | { name: 'settings'; section: string | null };

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  const params = new URLSearchParams(search);
  if (parts[0] === 'cases' && parts[1] && /^\d+$/.test(parts[1])) return parts[2] === 'release' ? { name: 'release', caseId: parts[1] } : { name: 'case', caseId: parts[1] };
  if (parts[0] === 'documents' && parts[1] && /^\d+$/.test(parts[1])) {
    const caseId = params.get('case');
    return { name: 'document', documentId: parts[1], caseId: caseId && /^\d+$/.test(caseId) ? caseId : null };
  }
  if (parts[0] === 'settings') return { name: 'settings', section: parts[1] ?? null };
  return { name: 'queue' };
}

export function routeHref(route: Route): string {
  switch (route.name) {
    case 'queue':
      return '#/cases';
    case 'case':
      return `#/cases/${route.caseId}`;
    case 'release':
      return `#/cases/${route.caseId}/release`;
    case 'document':
      return `#/documents/${route.documentId}${route.caseId ? `?case=${route.caseId}` : ''}`;
    case 'settings':
      return `#/settings${route.section ? `/${route.section}` : ''}`;
  }
}

