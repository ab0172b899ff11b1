import { srRS } from '@mui/material/locale';
import { createTheme } from '@mui/material/styles';

/** Spec 1 §9: colours, Roboto for text and Bitter for headings, dialogs up to 800 px wide. */
// Bitter's Serbian 'locl' forms turn upright г, п, т into italic shapes; headings keep the common ones.
const headings = { fontFamily: '"Bitter", "Roboto", serif', fontWeight: 700, fontFeatureSettings: '"locl" 0' } as const;

export const theme = createTheme(
  {
    palette: {
      primary: { main: '#417AB4' },
      secondary: { main: '#BE2528' },
      error: { main: '#BE2528' },
      success: { main: '#006442' },
    },
    typography: {
      fontFamily: '"Roboto", "Helvetica", "Arial", sans-serif',
      h1: { ...headings, fontSize: '1.75rem' },
      h2: { ...headings, fontSize: '1.5rem' },
      h3: { ...headings, fontSize: '1.25rem', fontWeight: 500 },
      h4: { ...headings, fontSize: '1.15rem', fontWeight: 500 },
      h5: { ...headings, fontSize: '1.05rem', fontWeight: 500 },
      h6: { ...headings, fontSize: '1rem', fontWeight: 500 },
      button: { textTransform: 'none', fontWeight: 500 },
    },
    components: {
      MuiDialog: {
        styleOverrides: { paper: { maxWidth: 800 } },
      },
      MuiTextField: {
        defaultProps: { size: 'small' },
      },
    },
  },
  srRS,
);
