import type { OcrMode } from '../ocr/ocr-types.ts';
import type { FeatureType } from './vision-request-schema.ts';

/** The Google feature types Legible serves. */
export const SUPPORTED_FEATURES: readonly FeatureType[] = ['TEXT_DETECTION', 'DOCUMENT_TEXT_DETECTION'];

/**
 * What one entry's `features` ask for: the OCR mode (DOCUMENT_TEXT_DETECTION wins when both are
 * asked, as Google documents in `Feature.Type`) and the feature types we do not serve, which the
 * entry reports as UNIMPLEMENTED next to any text it did read.
 */
export interface FeaturePlan {
  mode?: OcrMode;
  unsupported: FeatureType[];
}

export function planFeatures(features: ReadonlyArray<{ type?: FeatureType }>): FeaturePlan {
  const types = features.map((f) => f.type ?? 'TYPE_UNSPECIFIED');
  const mode: OcrMode | undefined = types.includes('DOCUMENT_TEXT_DETECTION')
    ? 'document'
    : types.includes('TEXT_DETECTION')
      ? 'text'
      : undefined;
  const unsupported = [...new Set(types.filter((t) => !SUPPORTED_FEATURES.includes(t)))];
  return { mode, unsupported };
}

export function unsupportedFeaturesMessage(unsupported: FeatureType[]): string {
  return `Feature ${unsupported.join(', ')} is not implemented by this server; supported: ${SUPPORTED_FEATURES.join(', ')}.`;
}
