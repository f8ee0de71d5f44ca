import { render } from 'preact';
import { App } from './app.tsx';
import './styles/console.css';

render(<App />, document.getElementById('app')!);
