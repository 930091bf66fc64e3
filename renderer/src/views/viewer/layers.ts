// Layer colours and labels shown by the viewer.
import { LAYER_INFO, LAYERS } from '../../../../main/common/redaction-catalog.js';
import type { Layer } from '../../api/types.js';

export { LAYERS, LAYER_INFO };
export { CLASSIFICATION_TYPES } from '../../../../main/common/redaction-catalog.js';

export const LAYER_COLORS: Readonly<Record<Layer, string>> = {
  B1: '#b42318',
  B2: '#b54708',
  B3: '#7a5af8',
  B4: '#0e7090',
  B5: '#c11574',
  B6: '#1570ef',
  B7: '#3b7c0f',
};

export function layerTitle(layer: Layer): string {
  return `${layer} ${LAYER_INFO[layer].exemption} ${LAYER_INFO[layer].label}`;
}

export const CLASSIFICATION_LABELS = { confidential: 'Confidential', secret: 'Secret', top_secret: 'Top secret' } as const;
