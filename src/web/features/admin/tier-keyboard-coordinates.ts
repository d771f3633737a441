import type { KeyboardCoordinateGetter } from '@dnd-kit/core';

type Place = { id: string | number; top: number; height: number };

const center = (place: Pick<Place, 'top' | 'height'>) => place.top + place.height / 2;

/**
 * The place one step up (-1) or down (+1) from `fromId` in a list laid out top to bottom, if there is one. Counting
 * from the place the dragged tier is over now (not where it started) is what lets each key press go one further.
 */
export function placeAfterStep(places: readonly Place[], fromId: string | number, step: -1 | 1): Place | undefined {
  const ordered = [...places].sort((a, b) => a.top - b.top);
  const from = ordered.findIndex((place) => place.id === fromId);
  return from === -1 ? undefined : ordered[from + step];
}

/**
 * Keyboard dragging in the tier list: each Arrow Down or Arrow Up moves the tier one place further, as often as it
 * is pressed (the stock sortable coordinates stall after one place when the tiers differ in height). It moves the
 * dragged tier's centre onto the centre of the next tier, which closestCenter then reports as the one it is over.
 */
export const tierKeyboardCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const step = event.code === 'ArrowDown' ? 1 : event.code === 'ArrowUp' ? -1 : undefined;
  const { active, over, collisionRect, droppableRects, droppableContainers } = context;
  if (!step || !active || !collisionRect) return undefined;
  event.preventDefault();
  const places: Place[] = [];
  for (const container of droppableContainers.getEnabled()) {
    const rect = droppableRects.get(container.id);
    if (rect) places.push({ id: container.id, top: rect.top, height: rect.height });
  }
  const target = placeAfterStep(places, over?.id ?? active.id, step);
  if (!target) return undefined;
  return { x: currentCoordinates.x, y: currentCoordinates.y + center(target) - center(collisionRect) };
};
