// First: takes the bridge secret out of the link's fragment before anything reads location.hash.
import './lib/hostKey.ts';
import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { session } from './lib/stores/session.svelte.ts';

// The first screen's calls go out before the shell is built: the host reads the rows meanwhile.
void session.start();
mount(App, { target: document.getElementById('app')! });
