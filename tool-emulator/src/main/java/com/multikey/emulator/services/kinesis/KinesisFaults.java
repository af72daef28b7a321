package com.multikey.emulator.services.kinesis;

/**
 * What Kinesis Data Streams for DynamoDB may do to a table's changes, on demand: AWS documents that a change can
 * appear more than once on the data stream and that records can appear in a different order than the changes were
 * made. {@code duplicateFraction} of the changes are put twice; {@code reorderWindow} changes are held and put in a
 * random order, so a record lands at most that many places from where its change was made (0: in order). Local only,
 * for tests and runs that want the Kinesis path's worst documented case.
 *
 * @param seed the random source's seed, so a run can be replayed
 */
public record KinesisFaults(double duplicateFraction, int reorderWindow, long seed) {

    public static final KinesisFaults NONE = new KinesisFaults(0, 0, 0);

    public KinesisFaults {
        if (duplicateFraction < 0 || duplicateFraction > 1) {
            throw new IllegalArgumentException("duplicateFraction must be between 0 and 1, was " + duplicateFraction);
        }
        if (reorderWindow < 0 || reorderWindow > 1000) {
            throw new IllegalArgumentException("reorderWindow must be between 0 and 1000, was " + reorderWindow);
        }
    }

    public boolean any() {
        return duplicateFraction > 0 || reorderWindow > 0;
    }
}
