import type { ClassificationType, Layer } from '../../api/types.js';
import { CLASSIFICATION_LABELS, CLASSIFICATION_TYPES, LAYERS, LAYER_COLORS, LAYER_INFO } from './layers.js';

export interface LayerChoice {
  layer: Layer;
  reason: string;
  classification: ClassificationType | '';
}

interface Props {
  value: LayerChoice;
  onChange: (value: LayerChoice) => void;
  /** Shown under the classification field when drawing on B1 was refused for lack of one. */
  classificationMissing: boolean;
}

/** Which exemption new boxes get: layer B1–B7 with its label (keys 1–7), a reason, and for B1 the classification. */
export function LayerPicker({ value, onChange, classificationMissing }: Props) {
  return (
    <fieldset className="layer-picker">
      <legend>New redactions</legend>
      {/* One choice per row, wrapping when narrow: a drop-down cut the longer names ("Privileged communicat"). */}
      <fieldset className="layer-choices" data-testid="layer-select">
        <legend>Layer (exemption)</legend>
        {LAYERS.map((layer, index) => (
          <label key={layer} className={value.layer === layer ? 'layer-choice selected' : 'layer-choice'} title={`${LAYER_INFO[layer].description} (key ${index + 1})`}>
            <input type="radio" name="new-redaction-layer" value={layer} checked={value.layer === layer} onChange={() => onChange({ ...value, layer })} />
            <span className="swatch" style={{ background: LAYER_COLORS[layer] }} aria-hidden="true" />
            <span className="layer-choice-name">{`${layer} ${LAYER_INFO[layer].exemption} ${LAYER_INFO[layer].label}`}</span>
            <kbd aria-hidden="true">{index + 1}</kbd>
          </label>
        ))}
      </fieldset>
      <p className="layer-description">{LAYER_INFO[value.layer].description}</p>
      {value.layer === 'B1' && (
        <label className="field">
          <span>Classification (required for B1)</span>
          <select
            value={value.classification}
            onChange={(event) => onChange({ ...value, classification: event.target.value as ClassificationType | '' })}
            aria-invalid={classificationMissing}
            aria-describedby={classificationMissing ? 'classification-missing' : undefined}
            required
          >
            <option value="">Choose a level…</option>
            {CLASSIFICATION_TYPES.map((level) => (
              <option key={level} value={level}>
                {CLASSIFICATION_LABELS[level]}
              </option>
            ))}
          </select>
          {classificationMissing && (
            <span id="classification-missing" className="error-text" role="alert">
              Choose the classification level before drawing on B1.
            </span>
          )}
        </label>
      )}
      <label className="field">
        <span>Reason (optional)</span>
        <input value={value.reason} maxLength={2000} onChange={(event) => onChange({ ...value, reason: event.target.value })} placeholder="e.g. Home address of a private person" />
      </label>
    </fieldset>
  );
}
