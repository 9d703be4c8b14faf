// Module Federation's asyncStartup initialises the shared scope before this entry runs, so the app can be
// imported directly (no bootstrap indirection).
import './main';
