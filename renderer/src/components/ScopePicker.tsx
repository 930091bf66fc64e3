import { ALL_SCOPES } from '../../../main/common/scopes.js';

interface Props {
  legend: string;
  value: readonly string[];
  onChange: (scopes: string[]) => void;
  /** Only these may be chosen (e.g. a service account's max_scopes); all when omitted. */
  allowed?: readonly string[];
}

/** Checkboxes for the spec's scopes, grouped as the spec lists them. */
export function ScopePicker({ legend, value, onChange, allowed }: Props) {
  const choices = allowed ? ALL_SCOPES.filter((scope) => allowed.includes(scope)) : ALL_SCOPES;
  return (
    <fieldset>
      <legend>{legend}</legend>
      <div className="row">
        <button type="button" className="button tiny" onClick={() => onChange([...choices])}>
          All
        </button>
        <button type="button" className="button tiny" onClick={() => onChange(choices.filter((scope) => scope.endsWith(':read')))}>
          Read only
        </button>
        <button type="button" className="button tiny ghost" onClick={() => onChange([])}>
          None
        </button>
      </div>
      <div className="scope-grid">
        {choices.map((scope) => (
          <label key={scope} className="check">
            <input type="checkbox" checked={value.includes(scope)} onChange={(event) => onChange(event.target.checked ? [...value, scope] : value.filter((entry) => entry !== scope))} />
            {scope}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
