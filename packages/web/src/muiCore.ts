/**
 * MUI's core (styles, theme, emotion: the `mui` chunk, vite.config.ts), which main.tsx evaluates in a task
 * of its own before the application's modules (issue 13 item 3): evaluated with them, it made the longest
 * task of an /app page's first visit. This module belongs to that chunk.
 */
export { createTheme } from '@mui/material/styles';
