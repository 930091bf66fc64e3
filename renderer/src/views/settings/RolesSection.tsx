import { useState, type FormEvent } from 'react';
import { createRole, deleteRole, listRoles, updateRole, type Role } from '../../api/access.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { ScopePicker } from '../../components/ScopePicker.js';
import { useAction } from '../../hooks/useAction.js';
import { useLoad } from '../../hooks/useLoad.js';

export function RolesSection() {
  const roles = useLoad((signal) => listRoles(signal), []);
  const action = useAction();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);

  const saved = (role: Role | undefined) => {
    if (!role) return;
    roles.setData((previous) => (previous ?? []).some((entry) => entry.id === role.id) ? (previous ?? []).map((entry) => (entry.id === role.id ? role : entry)) : [...(previous ?? []), role]);
    setEditing(null);
  };

  return (
    <section className="settings-section" aria-labelledby="roles-title">
      <div className="section-header">
        <h2 id="roles-title">Roles</h2>
        <div className="spacer" />
        <button type="button" className="button primary small" onClick={() => setEditing('new')}>
          New role
        </button>
      </div>
      <ErrorBanner error={roles.error} onRetry={roles.reload} />
      <ErrorBanner error={action.error} onDismiss={action.clearError} />
      {editing && (
        <RoleForm
          key={editing === 'new' ? 'new' : editing.id}
          role={editing === 'new' ? null : editing}
          busy={action.busy === 'role'}
          onCancel={() => setEditing(null)}
          onSubmit={async (body) =>
            saved(await action.run('role', (key) => (editing === 'new' ? createRole(body, key) : updateRole(editing.id, editing.built_in ? { description: body.description, scopes: body.scopes } : body, key))))
          }
        />
      )}
      <div className="table-wrap">
        <table className="grid" aria-label="Roles">
          <thead>
            <tr>
              <th>Role</th>
              <th>Scopes</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(roles.data ?? []).map((role) => (
              <tr key={role.id}>
                <td>
                  <strong>{role.name}</strong> {role.built_in && <span className="badge status-open">built-in</span>}
                  <div className="cell-sub">{role.description}</div>
                </td>
                <td className="scopes-cell">{role.scopes.join(', ')}</td>
                <td className="actions-cell">
                  <button type="button" className="button tiny" disabled={role.name === 'admin' && role.built_in} onClick={() => setEditing(role)}>
                    Edit
                  </button>
                  <button
                    type="button"
                    className="button tiny ghost"
                    disabled={role.built_in}
                    onClick={async () => {
                      const done = await action.run(`delete:${role.id}`, async () => {
                        await deleteRole(role.id);
                        return true;
                      });
                      if (done) roles.setData((previous) => (previous ?? []).filter((entry) => entry.id !== role.id));
                    }}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

interface FormProps {
  role: Role | null;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (body: { name: string; description: string; scopes: string[] }) => Promise<void>;
}

function RoleForm({ role, busy, onCancel, onSubmit }: FormProps) {
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [scopes, setScopes] = useState<string[]>(role ? [...role.scopes] : []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit({ name: name.trim(), description, scopes });
  };
  return (
    <form className="inline-form column" onSubmit={submit} aria-label={role ? `Edit role ${role.name}` : 'New role'}>
      <div className="row">
        <label className="field">
          <span>Name</span>
          <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} disabled={role?.built_in} />
        </label>
        <label className="field grow">
          <span>Description</span>
          <input value={description} onChange={(event) => setDescription(event.target.value)} maxLength={2000} />
        </label>
      </div>
      <ScopePicker legend="Scopes" value={scopes} onChange={setScopes} />
      <div className="row">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Saving…' : role ? 'Save role' : 'Create role'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
