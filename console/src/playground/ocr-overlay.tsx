import type { JSX } from 'preact';
import type { BoxLevel, OverlayBox } from './vision-boxes.ts';

/**
 * The image with its boxes drawn over it in an SVG whose viewBox is the image's pixel size, so
 * Vision's pixel coordinates map 1:1 at any display size.
 */
export function OcrOverlay(props: {
  src: string;
  alt: string;
  boxes: OverlayBox[];
  show: Record<BoxLevel, boolean>;
  size?: { width: number; height: number };
  onSize(size: { width: number; height: number }): void;
}): JSX.Element {
  const { size } = props;
  const stroke = size ? Math.max(1.5, Math.max(size.width, size.height) / 400) : 2;
  return (
    <div class="stage">
      <img
        src={props.src}
        alt={props.alt}
        onLoad={(e) => props.onSize({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
      />
      {size && (
        <svg class="stage-overlay" viewBox={`0 0 ${size.width} ${size.height}`} preserveAspectRatio="none" aria-hidden="true">
          {(['block', 'paragraph', 'word'] as const).map((level) =>
            props.show[level]
              ? props.boxes
                  .filter((b) => b.level === level)
                  .map((b, i) => (
                    <polygon
                      key={`${level}-${i}`}
                      points={b.points}
                      class={`box box-${level}`}
                      stroke-width={level === 'word' ? stroke : stroke * 1.3}
                    >
                      <title>
                        {b.text}
                        {b.confidence !== undefined ? ` (${Math.round(b.confidence * 100)}%)` : ''}
                      </title>
                    </polygon>
                  ))
              : null,
          )}
        </svg>
      )}
    </div>
  );
}
