import { useState, type FormEvent } from 'react';
import { createRole, deleteRole, listRoles, updateRole, type Role } from '../../api/access.js';
import { DataTable } from '../../components/DataTable.js';
import { ScopePicker } from '../../components/ScopePicker.js';
import { SettingsSection } from '../../components/SettingsSection.js';
import { TextField } from '../../components/TextField.js';
import { upsertById } from '../../domain/collections.js';
import { useAction } from '../../hooks/useAction.js';
import { useLoad } from '../../hooks/useLoad.js';

export function RolesSection() {
  const roles = useLoad((signal) => listRoles(signal), []);
  const action = useAction();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);

  const saved = (role: Role | undefined) => {
    if (!role) return;
    roles.setData((previous) => upsertById(previous, role));
    setEditing(null);
  };

  return (
    <SettingsSection
      titleId="roles-title"
      title="Roles"
      actions={
        <button type="button" className="button primary small" onClick={() => setEditing('new')}>
          New role
        </button>
      }
      loadError={roles.error}
      onRetry={roles.reload}
      action={action}
    >
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
      <DataTable
        label="Roles"
        columns={['Role', 'Scopes', '']}
        rows={roles.data}
        cells={(role) => (
          <>
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
          </>
        )}
      />
    </SettingsSection>
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
        <TextField label="Name" value={name} onChange={setName} required maxLength={100} disabled={role?.built_in} />
        <TextField label="Description" grow value={description} onChange={setDescription} maxLength={2000} />
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
