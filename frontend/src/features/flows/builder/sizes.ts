// The canvas's grid and a step's size before it is measured (StepCard is w-60: 240 pixels).
export const GRID = 20;
export const STEP_WIDTH = 240;
export const STEP_HEIGHT = 80;
