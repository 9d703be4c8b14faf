import { configure } from '@testing-library/react';

// A grid page renders a lot; on a busy two-core machine a first render can pass the default 1 s.
configure({ asyncUtilTimeout: 4000 });

/**
 * jsdom lays nothing out, so react-data-grid would see a 0×0 viewport and render almost no rows or
 * columns. Grid tests give elements a desktop-sized box instead.
 */
export function giveElementsASize(width = 2400, height = 900) {
  const original = HTMLElement.prototype.getBoundingClientRect;
  beforeAll(() => {
    HTMLElement.prototype.getBoundingClientRect = function () {
      return { x: 0, y: 0, top: 0, left: 0, right: width, bottom: height, width, height, toJSON: () => ({}) } as DOMRect;
    };
  });
  afterAll(() => {
    HTMLElement.prototype.getBoundingClientRect = original;
  });
}
