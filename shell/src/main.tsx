import { createRoot } from 'react-dom/client';
import { Shell } from './Shell';
import { createShellStore } from './store';
import './shell.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(<Shell store={createShellStore()} />);
