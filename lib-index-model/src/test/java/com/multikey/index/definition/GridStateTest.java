package com.multikey.index.definition;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GridStateTest {

    @Test
    void ofLabel_whenNoStateHasTheLabel_refusesNamingIt() {
        assertThat(GridState.ofLabel("switched")).isEqualTo(GridState.SWITCHED);
        assertThatThrownBy(() -> GridState.ofLabel("Switched")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown grid layout state 'Switched'");
    }
}
